// Processes of the bench: the app and the baselines, each pinned to CPU 0 (the load generator
// runs on CPU 1), their memory sampled from /proc, CPU profiles taken on demand.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/pg-cluster.mjs";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
export { freePort };

const HAS_TASKSET = spawnSync("sh", ["-c", "command -v taskset"]).status === 0;
export const PINNING = HAS_TASKSET && os.cpus().length >= 2;
export const SERVER_CPU = process.env.BENCH_SERVER_CPU ?? "0";
export const LOAD_CPU = process.env.BENCH_LOAD_CPU ?? "1";

// Servers never outlive the bench, however it ends.
const live = new Set();
process.on("exit", () => live.forEach((c) => c.exitCode === null && c.kill("SIGKILL")));

/** Spawn a command pinned to the server CPU (taskset execs it, so the pid is the program's). */
export function spawnPinned(cmd, args, opts) {
  const child = PINNING ? spawn("taskset", ["-c", SERVER_CPU, cmd, ...args], opts) : spawn(cmd, args, opts);
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Sample a process's RSS every `ms` until stopped; returns the samples in MiB. */
export function rssSampler(pid, ms = 500) {
  const samples = [];
  const timer = setInterval(() => {
    const v = rssMb(pid);
    if (v !== null) samples.push(v);
  }, ms);
  const first = rssMb(pid);
  if (first !== null) samples.push(first);
  return {
    samples,
    stop() {
      clearInterval(timer);
      return { maxMb: samples.length ? Math.max(...samples) : null, lastMb: samples.at(-1) ?? null, firstMb: samples[0] ?? null };
    },
  };
}

/**
 * A server process (`node ...`) that is ready once `ready()` resolves. Output is kept for error
 * messages. `profileDir` preloads the profiling hook: profile(label) toggles the V8 profiler.
 */
export async function startProcess({ name, args, env, ready, profileDir }) {
  let log = "";
  const nodeArgs = profileDir ? ["--import", path.join(ROOT, "bench/lib/profile-hook.mjs"), ...args] : args;
  const child = spawnPinned(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env, ...(profileDir ? { BENCH_PROFILE_DIR: profileDir } : {}) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (log = (log + d).slice(-20_000)));
  child.stderr.on("data", (d) => (log = (log + d).slice(-20_000)));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${log}`);
    if (await ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not become ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  let profiles = 0;
  return {
    name,
    pid: child.pid,
    child,
    profileDir,
    output: () => log,
    /** Start (first call) or stop and save (second call) a CPU profile; resolves to the file. */
    async toggleProfile() {
      child.kill("SIGUSR2");
      if (profiles % 2 === 0) {
        profiles++;
        await new Promise((r) => setTimeout(r, 100));
        return null;
      }
      profiles++;
      const want = `profile-${(profiles / 2) | 0}.cpuprofile`;
      for (let i = 0; i < 100; i++) {
        if (existsSync(path.join(profileDir, want)) && readdirSync(profileDir).includes(want + ".done")) return path.join(profileDir, want);
        await new Promise((r) => setTimeout(r, 100));
      }
      return null;
    },
    stop(signal = "SIGTERM") {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode) return resolve(child.exitCode);
        const t = setTimeout(() => child.kill("SIGKILL"), 20_000);
        child.once("exit", (code) => {
          clearTimeout(t);
          resolve(code);
        });
        child.kill(signal);
      });
    },
  };
}

export const httpReady = (url) => async () => (await fetch(url)).ok;
