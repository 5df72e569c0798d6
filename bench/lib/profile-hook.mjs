// Preloaded into a server under test (node --import): SIGUSR2 starts the V8 CPU profiler, the next
// SIGUSR2 stops it and writes profile-N.cpuprofile to BENCH_PROFILE_DIR (then a .done marker).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

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
