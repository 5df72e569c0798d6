// The results table (console and BENCHMARKS.md) from a run's rows. As a command, merges a re-run
// of some scenarios into an earlier run:
//   node bench/report.mjs --merge bench/results/<run>.json bench/results/<rerun>.json
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fmt = (v, digits = 1) =>
  v === null || v === undefined || Number.isNaN(v)
    ? "-"
    : typeof v === "number"
      ? Math.abs(v) >= 100
        ? Math.round(v).toString()
        : v.toFixed(digits)
      : String(v);

function cells(r) {
  if (r.failed) return [r.id, r.engine, r.name, "-", "-", "-", "-", "-", r.target ?? "-", r.measured, "FAILED"];
  const ratio = r.ratio ? `${fmt(r.ratio.median, 2)}x (${fmt(r.ratio.min, 2)}-${fmt(r.ratio.max, 2)})` : "-";
  const ours = r.ours ?? {};
  const base = r.baseline ?? {};
  const lat = `${fmt(ours.p50)} / ${fmt(ours.p99)}`;
  const baseLat = base.p50 !== undefined || base.p99 !== undefined ? `${fmt(base.p50)} / ${fmt(base.p99)}` : "-";
  const thr =
    ours.rps !== undefined
      ? `${fmt(ours.rps)} / ${fmt(base.rps)} req/s`
      : ours.msgPerSec !== undefined
        ? `${fmt(ours.msgPerSec)} / ${fmt(base.msgPerSec)} msg/s`
        : "-";
  const rss = `${fmt(r.rss?.app)}${r.rss?.baseline !== undefined ? ` / ${fmt(r.rss.baseline)}` : ""}`;
  return [
    r.rerun ? `${r.id}*` : r.id,
    r.engine,
    r.name,
    `${ratio} ${r.ratioOf ?? ""}`.trim(),
    lat,
    baseLat,
    thr,
    rss,
    r.target,
    r.measured,
    r.met ? "met" : "MISSED",
  ];
}

/**
 * Targets judged here rather than in the scenario: per engine (#1) or for a scenario whose code
 * another change owns (#4's baseline became a relay that stores each message, issue #12).
 */
const TARGETS = {
  1: (r) => {
    const min = r.engine === "pglite" ? 0.3 : 0.5;
    return { target: `throughput >= ${min}x (${r.engine === "pglite" ? "PGlite" : "PostgreSQL"})`, met: (r.ratio?.median ?? 0) >= min };
  },
  4: (r) => {
    const sockets = /(\d[\d,]*) sockets/.exec(r.name ?? "")?.[1] ?? "1000";
    const lost = (r.ours?.openLoop?.lost ?? 0) + (r.ours?.openLoop?.errors ?? 0);
    return {
      name: `/ws/chat, ${sockets} sockets, messages between random pairs vs a bare ws relay that stores each message (one INSERT)`,
      target: "msg/s >= 0.7x; delivery p99 <= 10 ms at 2,000 msg/s over 1,000 sockets",
      met: (r.ratio?.median ?? 0) >= 0.7 && (r.ours?.p99 ?? Infinity) <= 10 && lost === 0,
    };
  },
};

/** A scenario's row with the targets of TARGETS applied. */
export function judge(r) {
  const t = TARGETS[r.id];
  return t && !r.failed ? { ...r, ...t(r) } : r;
}

const HEAD = [
  "#",
  "engine",
  "scenario",
  "median ratio (spread)",
  "p50 / p99 ms",
  "baseline p50 / p99 ms",
  "throughput ours / baseline",
  "RSS MiB ours / baseline",
  "target",
  "measured",
  "",
];

export function renderTable(rows) {
  const all = [HEAD, ...rows.map(cells)].map((c) => c.map(String));
  // Console: the long columns wrapped as "measured" lines under a compact table.
  const compact = all.map((c) => [c[0], c[1], c[3], c[4], c[6], c[7], c[10]]);
  const widths = compact[0].map((_, i) => Math.max(...compact.map((c) => c[i].length)));
  const lines = compact.map((c) => c.map((x, i) => x.padEnd(widths[i])).join("  "));
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  return [...lines, "", ...rows.map((r) => `#${r.id} ${r.engine}: ${r.name}\n   target: ${r.target ?? "-"}\n   measured: ${r.measured}`)].join("\n");
}

export function renderMarkdown(result, file) {
  const { machine, config, generation } = result;
  const out = [];
  out.push(
    `Run of ${result.started} (${result.minutes} min), ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}` +
      `${machine.postgres ? `, ${machine.postgres}` : ""}${
        machine.postgresSettings
          ? ` (${Object.entries(machine.postgresSettings)
              .map(([k, v]) => `${k} ${v}`)
              .join(", ")})`
          : ""
      }; pinning: ${machine.pinning}; load average ${machine.loadAverageAtStart.join(" ")} at start, ` +
      `${machine.loadAverageAtEnd.join(" ")} at end (the machine was shared). Raw figures: \`${file}\`.`,
  );
  for (const r of result.reruns ?? []) {
    out.push("");
    out.push(
      `Re-run into this table at ${r.started} (${r.minutes} min, load average ${r.machine.loadAverageAtStart.join(" ")}, ${r.machine.pinning}): ${r.rows.map((k) => `#${k.replace(":", " ")}`).join(", ")} (rows marked *).`,
    );
  }
  out.push("");
  out.push(
    `Data: ${Object.entries(generation)
      .map(
        ([e, g]) =>
          `${e}: ${g.products} products, ${g.keywords} keywords, ${g.sellers} sellers, ${g.booths} booths, ${g.categories} categories, generated in ${Math.round(g.seconds)} s`,
      )
      .join("; ")}. ` +
      `Rounds: warm-up ${config.warmSeconds} s each, then ${config.rounds} x (A ${config.roundSeconds} s, B ${config.roundSeconds} s); open-loop runs ${config.openSeconds} s.` +
      (config.live
        ? ` Live catalog (#8): ${config.live.rounds} x (${config.live.seconds} s with writes, ${config.live.seconds} s without) on PostgreSQL, ${config.liveLite.rounds} x ${config.liveLite.seconds} s on PGlite.`
        : "") +
      (config.head
        ? ` Head terms (#9): ${config.head.rounds} rounds of ${config.head.reps} requests per term (app) and ${config.head.baseReps} (exact baseline).`
        : ""),
  );
  out.push("");
  out.push(`| ${HEAD.join(" | ")} |`);
  out.push(`|${HEAD.map(() => "---").join("|")}|`);
  for (const r of result.rows)
    out.push(
      `| ${cells(r)
        .map((c) => String(c).replace(/\|/g, "\\|"))
        .join(" | ")} |`,
    );
  out.push("");
  out.push("CPU profiles of the app under each scenario's load (self time, share of busy time):");
  out.push("");
  for (const r of result.rows) {
    if (!r.profile) continue;
    const areas = r.profile.topAreas
      .slice(0, 6)
      .map((a) => `${a.name} ${a.pct}%`)
      .join(", ");
    const fns = r.profile.topFunctions
      .slice(0, 5)
      .map((f) => `\`${f.name}\` ${f.pct}%`)
      .join(", ");
    out.push(`- #${r.id} ${r.engine} (busy ${r.profile.busyPct}% of ${r.profile.seconds} s): ${areas}. Top functions: ${fns}.`);
  }
  return out.join("\n");
}

/** Rows of `rerun` replace the same scenario and engine of `earlier`; the rest stay. */
export function mergeResults(earlier, rerun) {
  const key = (r) => `${r.id}:${r.engine}`;
  const fresh = new Map(rerun.rows.map((r) => [key(r), { ...r, rerun: rerun.started }]));
  const merged = earlier.rows.map((r) => fresh.get(key(r)) ?? r);
  for (const r of fresh.values()) if (!merged.includes(r)) merged.push(r);
  const order = ["pg", "pglite"];
  merged.sort((a, b) => (a.engine === b.engine ? a.id - b.id : order.indexOf(a.engine) - order.indexOf(b.engine)));
  return {
    ...earlier,
    rows: merged,
    reruns: [...(earlier.reruns ?? []), { started: rerun.started, minutes: rerun.minutes, rows: [...fresh.keys()], machine: rerun.machine }],
  };
}

/** Replace the generated part of BENCHMARKS.md. */
export function writeBenchmarksMd(result, file) {
  const md = path.join(ROOT, "BENCHMARKS.md");
  const current = existsSync(md) ? readFileSync(md, "utf8") : "# Benchmarks\n\n<!-- bench:begin -->\n<!-- bench:end -->\n";
  writeFileSync(
    md,
    current.replace(/<!-- bench:begin -->[\s\S]*<!-- bench:end -->/, `<!-- bench:begin -->\n${renderMarkdown(result, file)}\n<!-- bench:end -->`),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--merge") {
  const [base, rerun] = process.argv.slice(3).map((f) => JSON.parse(readFileSync(path.resolve(f), "utf8")));
  const result = mergeResults(base, rerun);
  const file = path.join("bench", "results", `${result.started.replace(/[:.]/g, "-")}-merged.json`);
  writeFileSync(path.join(ROOT, file), JSON.stringify(result, null, 1));
  writeBenchmarksMd(result, file);
  console.log(renderTable(result.rows));
  console.log(`\nwritten ${file} and BENCHMARKS.md`);
}
