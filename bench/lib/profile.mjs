// Summarize a .cpuprofile: where the server's CPU time went (self time), by function and by area
// (a package under node_modules, Node internals, the app's own files, GC).
import { readFileSync } from "node:fs";

function area(url) {
  if (!url) return null;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith("node:")) return "node (internals)";
  const app = /\/(lib|app|components|bench|server\.ts)(\/[^?]*)?/.exec(url);
  if (app) return app[2] ? `${app[1]}${app[2].split("/").slice(0, 3).join("/")}` : app[1];
  return url
    .replace(/^file:\/\//, "")
    .split("/")
    .slice(-2)
    .join("/");
}

export function summarizeProfile(file, top = 12) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  let total = 0;
  let idle = 0;
  const fn = new Map();
  const areas = new Map();
  for (const [id, us] of self) {
    const node = byId.get(id);
    const cf = node.callFrame;
    total += us;
    // The in-process inspector session's native `dispatch` frame stands for time the profiler
    // itself took or could not attribute; it is counted with idle time, not as the app's work.
    if (cf.functionName === "(idle)" || (cf.functionName === "dispatch" && !cf.url)) {
      idle += us;
      continue;
    }
    const shortUrl = cf.url
      ? cf.url
          .replace(/^file:\/\//, "")
          .replace(/.*node_modules\//, "")
          .replace(/^.*?\/(lib|app|bench)\//, "$1/")
      : "";
    const key = `${cf.functionName || "(anonymous)"} ${shortUrl ? `${shortUrl}:${cf.lineNumber + 1}` : ""}`.trim();
    fn.set(key, (fn.get(key) ?? 0) + us);
    const a = ["(garbage collector)", "(program)"].includes(cf.functionName) ? cf.functionName : (area(cf.url) ?? "node (native)");
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us) => Math.round((us / busy) * 1000) / 10;
  const sorted = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => ({ name: k, pct: pct(us) }));
  return { seconds: Math.round(total / 1e5) / 10, busyPct: Math.round((busy / total) * 1000) / 10, topFunctions: sorted(fn), topAreas: sorted(areas) };
}
