// Shared scenario machinery: A B A B rounds after a warm-up, wrk runs, profiled slices.
import { spawn } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { summarizeProfile } from "../lib/profile.mjs";
import { ROOT } from "../lib/proc.mjs";

/** Warm both up, then alternate A and B for cfg.rounds rounds. */
export async function alternate(cfg, runA, runB) {
  await runA(cfg.warmSeconds);
  await runB(cfg.warmSeconds);
  const a = [];
  const b = [];
  for (let i = 0; i < cfg.rounds; i++) {
    a.push(await runA(cfg.roundSeconds));
    b.push(await runB(cfg.roundSeconds));
  }
  return { a, b };
}

/** Run `load(seconds)` while the app's CPU profiler runs; returns the profile summary. */
export async function profiled(proc, seconds, load) {
  if (!proc.toggleProfile || !seconds) return null;
  await proc.toggleProfile();
  await load(seconds);
  const file = await proc.toggleProfile();
  return file ? { file: path.relative(ROOT, file), ...summarizeProfile(file) } : null;
}

/** Closed-loop load with Debian's wrk (one thread, on the load CPU), cycling through a paths file. */
export function wrk(base, pathsFile, seconds, connections) {
  return new Promise((resolve, reject) => {
    const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--timeout", "10s", "-s", path.join(ROOT, "bench/lib/paths.lua"), base, "--", pathsFile];
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", () => {
      const m = /WRKJSON(\{.*\})/.exec(out);
      if (!m) return reject(new Error(`wrk gave no summary:\n${out}`));
      const j = JSON.parse(m[1]);
      const errors = j.connect + j.read + j.write + j.status + j.timeout;
      resolve({
        rps: Math.round(j.requests / (j.duration_us / 1e6)),
        requests: j.requests,
        errors,
        p50: j.p50_us / 1000,
        p99: j.p99_us / 1000,
        max: j.max_us / 1000,
      });
    });
  });
}

/** Wait until the app answers health checks quickly again (work queued by an overload drained). */
export async function settle(base, maxSeconds = 180) {
  const deadline = Date.now() + maxSeconds * 1000;
  let fast = 0;
  while (fast < 3 && Date.now() < deadline) {
    const t = performance.now();
    const ok = await fetch(base + "/api/health", { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    fast = ok && performance.now() - t < 100 ? fast + 1 : 0;
    await new Promise((r) => setTimeout(r, fast ? 100 : 1000));
  }
}
