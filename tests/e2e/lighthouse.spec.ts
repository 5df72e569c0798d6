// Lighthouse in mobile mode (issue #17) on the home page, a search and a product page: accessibility,
// best practices and SEO at least 95 each. Performance is reported (test-results/lighthouse.json and
// BENCHMARKS.md), never asserted: timing depends on the machine.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const GATED = ["accessibility", "best-practices", "seo"] as const;

test("Lighthouse (mobile): accessibility, best practices and SEO of at least 95 on home, search and a product page", async ({ request, baseURL }) => {
  test.setTimeout(300_000);
  const search = await request.get("/api/products/search?q=lamp&limit=1");
  const productId = ((await search.json()) as { products: { id: string }[] }).products[0]!.id;
  // The catalog page itself: a results page for a query is noindex on purpose (search results are not content).
  const targets = ["/", "/search", `/products/${productId}`];

  const { launch } = await import("chrome-launcher");
  const { default: lighthouse } = await import("lighthouse");
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update"],
  });
  const report: Record<string, Record<string, number>> = {};
  const failures: string[] = [];
  try {
    for (const target of targets) {
      // A page gets a second run when its first misses: one run on a loaded CI machine can catch the page
      // mid-load (Lighthouse then scores what it saw, or reports a runtime error). Both runs' findings are
      // printed; the gate fails when the second run misses too.
      for (let attempt = 1; attempt <= 2; attempt++) {
        const result = await lighthouse(`${baseURL}${target}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", ...GATED],
          // The full-page screenshot only illustrates an HTML report (none is written here): ~1.5 s a page.
          disableFullPageScreenshot: true,
        });
        const lhr = result!.lhr;
        report[target] = Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]));
        const missed = missedCategories(lhr).map((m) => `${target} ${m}`);
        if (!missed.length) break;
        console.log(`Lighthouse run ${attempt} of ${target} missed: ${missed.join(" / ")}`);
        if (attempt === 2) failures.push(...missed);
      }
    }
  } finally {
    chrome.kill();
  }
  const dir = path.resolve("test-results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "lighthouse.json"), JSON.stringify(report, null, 2));
  console.log(`Lighthouse (mobile): ${JSON.stringify(report)}`);
  expect(failures).toEqual([]);
});

type Lhr = {
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, { id: string; score: number | null; scoreDisplayMode: string; details?: unknown }>;
  runtimeError?: { code: string; message: string };
};

/** The gated categories under 95, each with the audits that cost it points. */
function missedCategories(lhr: Lhr): string[] {
  const out: string[] = [];
  for (const id of GATED) {
    const category = lhr.categories[id]!;
    if ((category.score ?? 0) >= 0.95) continue;
    const audits = category.auditRefs
      .map((ref) => lhr.audits[ref.id]!)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable")
      .map((a) => `${a.id} (${describeItems(a.details)})`);
    const runtime = lhr.runtimeError ? ` runtime error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : "";
    out.push(`${id} ${Math.round((category.score ?? 0) * 100)}:${runtime} ${audits.join("; ")}`);
  }
  return out;
}

/** The first items an audit found (an element's snippet, a URL, a console message), short enough for a CI log's tail. */
function describeItems(details: unknown): string {
  const items = (details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  const shown = items.slice(0, 3).map((item) => {
    const node = item.node as { snippet?: string } | undefined;
    const text = node?.snippet ?? item.url ?? item.description ?? item.source ?? JSON.stringify(item);
    return String(text).slice(0, 160);
  });
  return `${items.length} item(s)${shown.length ? `: ${shown.join(" | ")}` : ""}`;
}
