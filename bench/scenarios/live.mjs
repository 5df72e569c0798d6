// Scenario 8 (issue #12): the live catalog. 100 reads/s open loop (70% search over the Zipf mix,
// 20% product detail, 10% lists) with 5 product updates/s and 1 new product/s by signed-in sellers
// (A), against the same reads without writes (B), alternated: A B A B ..., equal time on each side.
// A freshness probe runs during the A phases (bench/lib/live-writes.mjs).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { openLoop } from "../lib/open-loop.mjs";
import { createStream, probeLoop, signInWriters, updateStream } from "../lib/live-writes.mjs";
import { rssSampler } from "../lib/proc.mjs";
import { rng } from "../lib/rand.mjs";
import { median, pairedRatio, round3, summarize } from "../lib/stats.mjs";
import { profiled } from "./common.mjs";
import { row } from "./http.mjs";

const READ_RATE = 100;
const UPDATE_RATE = 5;
const CREATE_RATE = 1;

/** The read mix, one seeded stream: each phase continues where the one before stopped. */
function readMix(manifest, n) {
  const r = rng(12);
  const q = manifest.searchQueries;
  const ids = manifest.productIds;
  const urls = manifest.listUrls;
  const mix = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.7)
      mix.push({
        path: `/api/products/search?q=${encodeURIComponent(q[Math.floor(r() * q.length)].q)}`,
        tag: "search",
      });
    else if (x < 0.9)
      mix.push({
        path: `/api/products/${ids[Math.floor(r() * ids.length)]}`,
        tag: "detail",
      });
    else mix.push({ path: urls[Math.floor(r() * urls.length)], tag: "list" });
  }
  return mix;
}

/** Latencies of `runs` (open-loop results with `raw`) pooled per class. */
function pooled(runs) {
  const by = { searchList: [], detail: [], all: [] };
  for (const run of runs) {
    run.raw.latency.forEach((ms, i) => {
      if (Number.isNaN(ms)) return;
      by.all.push(ms);
      (run.raw.tags[i] === "detail" ? by.detail : by.searchList).push(ms);
    });
  }
  return Object.fromEntries(Object.entries(by).map(([k, v]) => [k, summarize(v)]));
}

/** Search and list latencies pooled by how the list cache answered them (hit, miss, bypass). */
function byCacheState(runs) {
  const by = {};
  for (const run of runs) {
    run.raw.latency.forEach((ms, i) => {
      if (Number.isNaN(ms) || run.raw.tags[i] === "detail") return;
      (by[run.raw.cache[i] ?? "none"] ??= []).push(ms);
    });
  }
  return Object.fromEntries(Object.entries(by).map(([k, v]) => [k, summarize(v)]));
}

/** The app's event-loop delay (the profiling hook's eld.jsonl, one line a second) over these phases. */
function loopDelay(app, phases) {
  const file = app.profileDir && path.join(app.profileDir, "eld.jsonl");
  if (!file || !existsSync(file)) return null;
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const inside = lines.filter((l) => phases.some((p) => l.t > p.from + 1000 && l.t <= p.to));
  if (!inside.length) return null;
  return {
    seconds: inside.length,
    p99: summarize(inside.map((l) => l.p99)),
    max: summarize(inside.map((l) => l.max)),
    gcMajorMsPerSecond: summarize(inside.map((l) => l.gcMajor ?? 0)),
    gcMajorPause: summarize(inside.map((l) => l.gcMajorMax ?? 0)),
    gcMinorMsPerSecond: summarize(inside.map((l) => l.gcMinor ?? 0)),
    heapMb: summarize(inside.map((l) => l.heapMb ?? 0)),
    feedMsPerSecond: summarize(inside.map((l) => l.feedMs ?? 0)),
    feedLongest: summarize(inside.map((l) => l.feedMaxMs ?? 0)),
    // The list cache's computations and marks (list-cache.ts ListCacheStats), summed over the phases.
    listComputed: Object.fromEntries(["request", "background", "bypass"].map((k) => [k, inside.reduce((n, l) => n + (l.listComputed?.[k] ?? 0), 0)])),
    listMarks: inside.reduce((n, l) => n + (l.listMarks ?? 0), 0),
  };
}

const strip = (run) => ({ ...run, raw: undefined });

/**
 * The slowest reads of the phases with writes, each with what was in flight beside it (reads by cache
 * state, writes, and the longest misses among them): whether a slow read waited on its own work or on
 * another request's.
 */
function slowest(phases, n = 40) {
  const all = [];
  for (const ph of phases) {
    const list = [];
    for (const [stream, run] of [
      ["read", ph.reads],
      ["update", ph.updates],
      ["create", ph.creates],
    ]) {
      run.raw.latency.forEach((ms, i) => {
        if (Number.isNaN(ms)) return;
        const from = run.raw.sentAt[i];
        list.push({
          stream,
          path: run.raw.paths[i],
          tag: run.raw.tags[i] ?? stream,
          cache: run.raw.cache[i] ?? null,
          ms: Math.round(ms * 10) / 10,
          from,
          to: from + ms,
        });
      });
    }
    for (const r of list) if (r.stream === "read") all.push({ r, list });
  }
  all.sort((x, y) => y.r.ms - x.r.ms);
  return all.slice(0, n).map(({ r, list }) => {
    const beside = list.filter((o) => o !== r && o.from < r.to && o.to > r.from);
    const count = {};
    for (const o of beside) {
      const kind = o.stream === "read" ? `${o.tag}:${o.cache ?? "-"}` : o.stream;
      count[kind] = (count[kind] ?? 0) + 1;
    }
    const longMisses = beside
      .filter((o) => o.cache === "miss" && o.ms > 30)
      .sort((x, y) => y.ms - x.ms)
      .slice(0, 4)
      .map((o) => `${o.ms} ms ${o.path}`);
    return { ms: r.ms, tag: r.tag, cache: r.cache, path: r.path, beside: count, longMisses };
  });
}

export async function liveScenario(ctx) {
  const { app, cfg, manifest, engine } = ctx;
  const { rounds, seconds, warm, gap, probeEvery } = engine === "pglite" ? cfg.liveLite : cfg.live;
  const tokens = await signInWriters(app.base, manifest);
  const mix = readMix(manifest, 50_000);
  let offset = 0;
  const reads = (s) => {
    const start = offset;
    offset += Math.round(READ_RATE * s);
    return openLoop({
      base: app.base,
      rate: READ_RATE,
      seconds: s,
      raw: true,
      request: (i) => mix[(start + i) % mix.length],
    });
  };
  const updates = updateStream(manifest, tokens);
  const creates = createStream(manifest, tokens);
  const phases = { with: [], without: [] };
  const timed = async (list, run) => {
    const from = Date.now();
    const r = await run();
    list.push({ from, to: Date.now() });
    return r;
  };
  const withWrites = async (s, probe = true) => {
    const probes = probe ? probeLoop(app.base, manifest, tokens, probeEvery * 1000, 83 + offset) : null;
    const [rd, up, cr] = await Promise.all([
      reads(s),
      openLoop({
        base: app.base,
        rate: UPDATE_RATE,
        seconds: s,
        raw: true,
        request: () => updates(),
      }),
      openLoop({
        base: app.base,
        rate: CREATE_RATE,
        seconds: s,
        raw: true,
        request: () => creates(),
      }),
    ]);
    return {
      reads: rd,
      updates: up,
      creates: cr,
      probes: probes ? await probes.stop() : [],
    };
  };
  const rss = rssSampler(app.pid);
  await reads(warm);
  const a = [];
  const b = [];
  for (let k = 0; k < rounds; k++) {
    a.push(await timed(phases.with, () => withWrites(seconds)));
    // Reads alone, not counted, so that B does not start in the aftermath of A's last writes.
    if (gap) await reads(gap);
    b.push(await timed(phases.without, () => reads(seconds)));
  }
  const appRss = rss.stop();
  const profile = await profiled(app, cfg.profileSeconds, (s) => withWrites(s, false));

  const withW = pooled(a.map((x) => x.reads));
  const without = pooled(b);
  const upd = pooled(a.map((x) => x.updates)).all;
  const cre = pooled(a.map((x) => x.creates)).all;
  const ratio = pairedRatio(
    a.map((x) => x.reads.latencyMs.p99),
    b.map((x) => x.latencyMs.p99),
  );
  const probes = a.flatMap((x) => x.probes);
  const delays = probes.filter((p) => p.delayMs !== undefined);
  const fresh = summarize(delays.map((p) => p.delayMs));
  const neverShown = delays.filter((p) => p.neverShown).length;
  const staleDetail = probes.filter((p) => p.staleDetail).length;
  const probeErrors = probes.filter((p) => p.error).length;
  const readErrors = a.reduce((n, x) => n + x.reads.errors, 0) + b.reduce((n, x) => n + x.errors, 0);
  const writeErrors = a.reduce((n, x) => n + x.updates.errors + x.creates.errors, 0);
  const pooledRatio = {
    searchList: round3(withW.searchList.p99 / without.searchList.p99),
    detail: round3(withW.detail.p99 / without.detail.p99),
    all: round3(withW.all.p99 / without.all.p99),
  };
  const errors = readErrors + writeErrors + probeErrors;
  const cacheStates = { with: byCacheState(a.map((x) => x.reads)), without: byCacheState(b) };
  const slow = slowest(a);
  const loop = { with: loopDelay(app, phases.with), without: loopDelay(app, phases.without) };
  const states = (by) =>
    Object.entries(by)
      .map(([k, v]) => `${k} ${v.n} p50/p99 ${v.p50} / ${v.p99}`)
      .join(", ");
  const loopText = (l) =>
    l
      ? `p99 of each second's p99 ${l.p99.p99} ms, of its max ${l.max.p99} ms (max ${l.max.max} ms); major GC ${l.gcMajorMsPerSecond.p50} ms/s p50, longest pause ${l.gcMajorPause.max} ms; heap p50 ${l.heapMb.p50} MiB; ` +
        `caches taking feed changes ${l.feedMsPerSecond.p50} ms/s p50, longest p99 ${l.feedLongest.p99} ms, max ${l.feedLongest.max} ms; ` +
        `list answers marked ${l.listMarks}, computed for a request ${l.listComputed.request}, ahead of a deadline ${l.listComputed.background}`
      : "not measured";
  const met =
    errors === 0 &&
    withW.searchList.p99 <= 50 &&
    withW.detail.p99 <= 20 &&
    ratio.median <= 1.5 &&
    upd.p99 <= 50 &&
    cre.p99 <= 50 &&
    delays.length > 0 &&
    fresh.max <= 1000 &&
    staleDetail === 0;
  return row(
    8,
    `Live catalog: ${READ_RATE} reads/s (70% search, 20% detail, 10% list) with ${UPDATE_RATE} updates/s + ${CREATE_RATE} new/s vs without writes, ${rounds} x ${seconds} s each`,
    {
      ratio,
      ratioOf: "read p99 with/without writes",
      ours: {
        p50: withW.searchList.p50,
        p99: withW.searchList.p99,
        rps: median(a.map((x) => x.reads.achievedRps)),
        detail: withW.detail,
        updates: upd,
        creates: cre,
        freshness: fresh,
      },
      baseline: {
        p50: without.searchList.p50,
        p99: without.searchList.p99,
        detail: without.detail,
      },
      rss: { app: appRss.maxMb },
      target:
        "search/list p99 <= 50 ms, detail p99 <= 20 ms with writes; read p99 with/without <= 1.5x; updates and creates p99 <= 50 ms; 0 errors; a change shows in lists/searches within 1 s (contract 9.3)",
      met,
      measured:
        `with writes: search/list p99 ${withW.searchList.p99} ms, detail p99 ${withW.detail.p99} ms (without: ${without.searchList.p99} / ${without.detail.p99} ms; ` +
        `pooled ratio search/list ${pooledRatio.searchList}x, detail ${pooledRatio.detail}x); updates p50/p99 ${upd.p50} / ${upd.p99} ms, creates ${cre.p50} / ${cre.p99} ms; ` +
        `errors: ${readErrors} reads, ${writeErrors} writes, ${probeErrors} probes; freshness over ${delays.length} probes: p50 ${fresh.p50} / p99 ${fresh.p99} / max ${fresh.max} ms` +
        `${neverShown ? ` (${neverShown} not shown within 10 s)` : ""}; own page stale after a write: ${staleDetail}; ` +
        `search+list by cache state with writes: ${states(cacheStates.with)} (without: ${states(cacheStates.without)}); ` +
        `event-loop delay with writes: ${loopText(loop.with)} (without: ${loopText(loop.without)})`,
      profile,
      raw: {
        a: a.map((x) => ({
          reads: strip(x.reads),
          updates: strip(x.updates),
          creates: strip(x.creates),
          probes: x.probes,
        })),
        b: b.map(strip),
        pooled: {
          with: withW,
          without,
          updates: upd,
          creates: cre,
          ratio: pooledRatio,
          cacheStates,
          loop,
          slowest: slow,
        },
        config: {
          rounds,
          seconds,
          warm,
          gap,
          probeEvery,
          readRate: READ_RATE,
          updateRate: UPDATE_RATE,
          createRate: CREATE_RATE,
          writers: tokens.size,
        },
      },
    },
  );
}
