// Preloaded into a server under test (node --import): SIGUSR2 starts the V8 CPU profiler and the
// allocation sampler (what was allocated, collected or not), the next SIGUSR2 stops them and writes profile-N.cpuprofile and
// profile-N.heapprofile to BENCH_PROFILE_DIR (then a .done marker). Worker threads (the password
// hashing pool) inherit the preload: they skip it.
import { appendFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const dir = process.env.BENCH_PROFILE_DIR;
if (isMainThread) start();

function start() {
  const session = new Session();
  session.connect();
  let running = false;
  let n = 0;
  process.on("SIGUSR2", () => {
    if (!running) {
      running = true;
      session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 500 }, () => session.post("Profiler.start")));
      session.post("HeapProfiler.enable", () =>
        session.post("HeapProfiler.startSampling", { samplingInterval: 65536, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }),
      );
      return;
    }
    running = false;
    session.post("HeapProfiler.stopSampling", (err, res) => {
      if (!err) writeFileSync(path.join(dir, `profile-${n + 1}.heapprofile`), JSON.stringify(res.profile));
      session.post("Profiler.stop", (err2, res2) => {
        n++;
        const file = path.join(dir, `profile-${n}.cpuprofile`);
        if (!err2) writeFileSync(file, JSON.stringify(res2.profile));
        writeFileSync(file + ".done", "");
      });
    });
  });

  // The event loop's delay, one line a second in eld.jsonl (wall-clock ms, p50/p99/max in ms): a
  // scenario reads the lines of its own phases to tell a blocked loop from a slow database.
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const eldFile = path.join(dir, "eld.jsonl");
  // Garbage collection in the same second: pauses of the main thread by kind (major: mark-compact).
  let gc = { major: 0, majorMax: 0, minor: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major += e.duration;
        gc.majorMax = Math.max(gc.majorMax, e.duration);
      } else gc.minor += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
  setInterval(() => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const r = (x) => Math.round(x * 100) / 100;
    const heapMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
    // The app's catalog feed: time its caches spent taking changes (lib/services/catalog/catalog-feed.ts FeedStats).
    const feed = globalThis[Symbol.for("expo-trade.catalog-feed.stats")] ?? { changes: 0, ms: 0, maxMs: 0 };
    // The list cache's computations by what started them, and the answers changes marked (list-cache.ts ListCacheStats).
    const lists = globalThis[Symbol.for("expo-trade.list-cache.stats")] ?? { request: 0, background: 0, bypass: 0, marks: 0 };
    const line = {
      t: Date.now(),
      p50: ms(eld.percentile(50)),
      p99: ms(eld.percentile(99)),
      max: ms(eld.max),
      gcMajor: r(gc.major),
      gcMajorMax: r(gc.majorMax),
      gcMinor: r(gc.minor),
      heapMb,
      feedChanges: feed.changes,
      feedMs: r(feed.ms),
      feedMaxMs: r(feed.maxMs),
      listComputed: { request: lists.request, background: lists.background, bypass: lists.bypass },
      listMarks: lists.marks,
    };
    Object.assign(feed, { changes: 0, ms: 0, maxMs: 0 });
    Object.assign(lists, { request: 0, background: 0, bypass: 0, marks: 0 });
    appendFileSync(eldFile, JSON.stringify(line) + "\n");
    eld.reset();
    gc = { major: 0, majorMax: 0, minor: 0 };
  }, 1000).unref();
}
