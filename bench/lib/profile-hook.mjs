// Preloaded into a server under test (node --import): SIGUSR2 starts the V8 CPU profiler, the next
// SIGUSR2 stops it and writes profile-N.cpuprofile to BENCH_PROFILE_DIR (then a .done marker).
import { appendFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.BENCH_PROFILE_DIR;
const session = new Session();
session.connect();
let running = false;
let n = 0;
process.on("SIGUSR2", () => {
  if (!running) {
    running = true;
    session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 500 }, () => session.post("Profiler.start")));
    return;
  }
  running = false;
  session.post("Profiler.stop", (err, res) => {
    n++;
    const file = path.join(dir, `profile-${n}.cpuprofile`);
    if (!err) writeFileSync(file, JSON.stringify(res.profile));
    writeFileSync(file + ".done", "");
  });
});

// The event loop's delay, one line a second in eld.jsonl (wall-clock ms, p50/p99/max in ms): a
// scenario reads the lines of its own phases to tell a blocked loop from a slow database.
const eld = monitorEventLoopDelay({ resolution: 5 });
eld.enable();
const eldFile = path.join(dir, "eld.jsonl");
setInterval(() => {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  appendFileSync(eldFile, JSON.stringify({ t: Date.now(), p50: ms(eld.percentile(50)), p99: ms(eld.percentile(99)), max: ms(eld.max) }) + "\n");
  eld.reset();
}, 1000).unref();
