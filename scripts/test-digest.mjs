// What failed in `npm test`, from each step's JSON report (vitest's json reporter, Playwright's json
// reporter): each failed test's title and the first lines of its error, printed at the very end of the run.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const plain = (text) => String(text).replace(/\u001b\[[0-9;]*m/g, "");
const clip = (line) => `    ${line.length > 400 ? `${line.slice(0, 400)}…` : line}`;

/** The failed tests of a step's JSON report: a title and the first lines of the error. */
export function failuresOf(report, root) {
  if (!report || !existsSync(report.file)) return [];
  const json = JSON.parse(readFileSync(report.file, "utf8"));
  const out = [];
  if (report.kind === "vitest") {
    for (const file of json.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
      for (const a of failed) out.push({ title: `${path.relative(root, file.name)} > ${a.fullName}`, message: a.failureMessages?.[0] ?? "" });
      if (!failed.length && file.status === "failed") out.push({ title: path.relative(root, file.name), message: file.message ?? "" });
    }
  } else {
    const walk = (suite, file) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          for (const r of t.results ?? [])
            if (r.status !== "passed" && r.status !== "skipped")
              out.push({ title: `${file ?? suite.file} > ${spec.title}`, message: r.error?.message ?? r.status });
      for (const child of suite.suites ?? []) walk(child, file ?? suite.file);
    };
    for (const suite of json.suites ?? []) walk(suite);
    for (const e of json.errors ?? []) out.push({ title: "(outside a test)", message: e.message ?? "" });
  }
  return out;
}

/**
 * What the server logged for a failed request: the shared integration server's output (its log, when the
 * step wrote one) holds "[<request id>] unhandled error" and the stack for every 500 it answered.
 */
export function serverErrors(message, logFile) {
  if (!logFile || !existsSync(logFile)) return [];
  const ids = [...new Set([...plain(message).matchAll(/\(request ([0-9a-f-]{36})\)/g)].map((m) => m[1]))];
  if (!ids.length) return [];
  const log = plain(readFileSync(logFile, "utf8")).split("\n");
  const out = [];
  for (const id of ids.slice(0, 2)) {
    const at = log.findIndex((l) => l.includes(`[${id}]`));
    if (at < 0) continue;
    out.push(`server log for request ${id}:`);
    const end = log.findIndex((l, i) => i > at && !l.trim());
    const frames = log.slice(at, end < 0 ? at + 40 : end).filter((l) => !/^\s*at .*(node_modules|node:internal)/.test(l));
    out.push(...frames.slice(0, 10).map((l) => `  ${l.trimEnd()}`));
  }
  return out;
}

export function digest(results, root) {
  const lines = [];
  for (const r of results.filter((x) => !x.ok)) {
    let failures = [];
    try {
      failures = failuresOf(r.report, root);
    } catch (err) {
      lines.push(`${r.label}: its report could not be read (${err.message})`);
    }
    for (const f of failures.slice(0, 5)) {
      lines.push(`${r.label}: ${f.title}`);
      const body = plain(f.message)
        .split("\n")
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() && !/^\s*at .*(node_modules|<anonymous>|node:internal)/.test(l));
      for (const l of [...body.slice(0, 12), ...serverErrors(f.message, r.report?.serverLog)]) lines.push(clip(l));
    }
    if (failures.length > 5) lines.push(`${r.label}: and ${failures.length - 5} more failed tests`);
  }
  return lines;
}
