// What a cache miss costs (issue #12): every distinct search and list of the bench's mix (the manifest's
// searchQueries with facets, as scenario 8 asks them, and its listUrls) answered once, one at a time, in
// process, on the bench data with an empty answer cache: each answer is computed from the database.
// Reports percentiles by query class and by number of matches, and the sum (the database time a
// process spends filling its cache with the whole mix). A measurement tool, not a test.
//
//   node --import tsx bench/cold.ts --manifest DIR/manifest.json [--out FILE.json]   (DATABASE_URL or PGLITE_DIR set)
import { readFileSync, writeFileSync } from "node:fs";
import { closeDatabase, dbHandle, drizzleFor } from "@/lib/db/client";
import { ProductListQuery } from "@/lib/schemas/products";
import { stopCatalogFeed } from "@/lib/services/catalog/catalog-feed";
import { searchProductsJson } from "@/lib/services/catalog/search";

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);

type Job = { cls: string; input: Record<string, string>; facets: boolean };
type Timed = Job & { ms: number; total: number; relation: string };

function summary(label: string, rows: Timed[]) {
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(1);
  const sum = ms.reduce((a, b) => a + b, 0);
  return `${label.padEnd(22)} n ${String(ms.length).padStart(5)}  p50 ${at(0.5).padStart(6)}  p90 ${at(0.9).padStart(6)}  p99 ${at(0.99).padStart(6)}  max ${at(1).padStart(6)}  sum ${(sum / 1000).toFixed(1).padStart(6)} s`;
}

async function main() {
  const manifest = JSON.parse(readFileSync(arg("--manifest", "bench/.data/pg/manifest.json"), "utf8")) as {
    searchQueries: { q: string; cls: string }[];
    listUrls: string[];
  };
  const jobs: Job[] = [];
  const seen = new Set<string>();
  for (const s of manifest.searchQueries) {
    if (seen.has(`q:${s.q}`)) continue;
    seen.add(`q:${s.q}`);
    jobs.push({ cls: s.cls, input: { q: s.q }, facets: true });
  }
  for (const u of manifest.listUrls) {
    if (seen.has(u)) continue;
    seen.add(u);
    jobs.push({ cls: "list", input: Object.fromEntries(new URL(u, "http://bench").searchParams), facets: false });
  }
  const db = drizzleFor(await dbHandle());
  // The catalog feed's first poll and the category tree, before the first timed query.
  await searchProductsJson(db, ProductListQuery.parse({ q: "bench-cold-warm-up" }), { facets: true });
  const out: Timed[] = [];
  for (const job of jobs) {
    const t = performance.now();
    const answer = await searchProductsJson(db, ProductListQuery.parse(job.input), { facets: job.facets });
    const ms = performance.now() - t;
    const body = JSON.parse(answer.body.toString("utf8")) as { total: number; totalRelation: string };
    out.push({ ...job, ms, total: body.total, relation: body.totalRelation });
  }
  stopCatalogFeed();
  await closeDatabase();
  console.log(summary("all", out));
  for (const cls of [...new Set(out.map((r) => r.cls))])
    console.log(
      summary(
        cls,
        out.filter((r) => r.cls === cls),
      ),
    );
  const buckets: [string, (r: Timed) => boolean][] = [
    ["0 matches", (r) => r.total === 0],
    ["1-100", (r) => r.total >= 1 && r.total <= 100],
    ["101-1,000", (r) => r.total > 100 && r.total <= 1_000],
    ["1,001-10,000", (r) => r.total > 1_000 && r.relation === "eq"],
    ["more than 10,000", (r) => r.relation === "gte"],
  ];
  for (const [label, test] of buckets) {
    const rows = out.filter(test);
    if (rows.length) console.log(summary(label, rows));
  }
  const file = arg("--out", "");
  if (file) writeFileSync(file, JSON.stringify(out));
}

void main();
