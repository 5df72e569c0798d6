// Open-loop HTTP load: requests leave on a fixed schedule whether or not earlier ones have been
// answered, and latency counts from the intended send time (no coordinated omission). Keep-alive
// connections, as many as the schedule needs up to `maxInFlight`: a request due while that many
// are outstanding is not sent and counts as an error with the timeout as its latency, so an
// overloaded server shows as such without piling up minutes of queued work.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { summarize } from "./stats.mjs";

/**
 * `raw` keeps every latency and tag in the result (scenario 8 pools them over several runs).
 * @param {{ base: string, rate: number, seconds: number, request: (i: number) => { method?: string, path: string, headers?: Record<string,string>, body?: string, tag?: string }, timeoutMs?: number, windowSeconds?: number, maxInFlight?: number, raw?: boolean }} o
 */
export async function openLoop(o) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const n = Math.max(1, Math.round(o.rate * o.seconds));
  const interval = 1000 / o.rate;
  const latency = new Float64Array(n).fill(NaN);
  const tags = new Array(n);
  const paths = o.raw ? new Array(n) : null;
  // The list cache's answer state (`x-list-cache`: hit, miss, bypass) where the app sends one.
  const cacheStates = new Array(n);
  const statuses = {};
  let errors = 0;
  let done = 0;
  let inFlight = 0;
  let dropped = 0;
  const maxInFlight = o.maxInFlight ?? 64;
  const t0 = performance.now() + 5;
  const url = new URL(o.base);
  const timeoutMs = o.timeoutMs ?? 10_000;
  await new Promise((resolve) => {
    const finish = (sent) => {
      if (sent) inFlight--;
      if (++done === n) resolve();
    };
    const fire = (i) => {
      const intended = t0 + i * interval;
      const r = o.request(i);
      tags[i] = r.tag;
      if (paths) paths[i] = r.path;
      if (inFlight >= maxInFlight) {
        dropped++;
        errors++;
        latency[i] = timeoutMs;
        return finish();
      }
      inFlight++;
      const req = http.request({ host: url.hostname, port: url.port, path: r.path, method: r.method ?? "GET", headers: r.headers, agent }, (res) => {
        res.on("data", () => {});
        res.on("end", () => {
          latency[i] = performance.now() - intended;
          cacheStates[i] = res.headers["x-list-cache"];
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode >= 400) errors++;
          finish(true);
        });
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
      req.on("error", () => {
        errors++;
        statuses.error = (statuses.error ?? 0) + 1;
        latency[i] = performance.now() - intended;
        finish(true);
      });
      req.end(r.body);
    };
    let sent = 0;
    const tick = () => {
      const now = performance.now();
      while (sent < n && t0 + sent * interval <= now) fire(sent++);
      if (sent < n) setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
    };
    setTimeout(tick, 5);
  });
  agent.destroy();
  const elapsed = (performance.now() - t0) / 1000;
  const all = [...latency].filter((x) => !Number.isNaN(x));
  const result = { rate: o.rate, seconds: o.seconds, requests: n, errors, dropped, statuses, achievedRps: Math.round(n / elapsed), latencyMs: summarize(all) };
  // Per-window percentiles (scenario 7's drift) and per-tag ones (query classes).
  if (o.windowSeconds) {
    const per = Math.round(o.windowSeconds * o.rate);
    result.windows = [];
    for (let s = 0; s < n; s += per) result.windows.push(summarize([...latency.subarray(s, Math.min(n, s + per))].filter((x) => !Number.isNaN(x))));
  }
  const byTag = {};
  tags.forEach((t, i) => t && !Number.isNaN(latency[i]) && (byTag[t] ??= []).push(latency[i]));
  if (Object.keys(byTag).length) result.byTag = Object.fromEntries(Object.entries(byTag).map(([k, v]) => [k, summarize(v)]));
  // Send times (ms since this run's start, on the load generator's clock) place each request among the others.
  if (o.raw) result.raw = { latency: [...latency], tags, cache: cacheStates, paths, sentAt: Array.from({ length: n }, (_, i) => t0 + i * interval) };
  return result;
}

/** One request at a time (closed loop, one connection): per-request latency in ms, for as many
 * of `paths` as fit in `budgetMs`. A request that fails or takes over 30 s is status 0 (an error the
 * scenario counts), not the end of the run. */
export async function sequential(base, paths, budgetMs = Infinity) {
  const deadline = performance.now() + budgetMs;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(base);
  const out = [];
  for (const path of paths) {
    if (performance.now() > deadline) break;
    const t = performance.now();
    const { status, body } = await new Promise((resolve) => {
      const req = http.request({ host: url.hostname, port: url.port, path, agent }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      });
      req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
      req.on("error", () => resolve({ status: 0, body: Buffer.alloc(0) }));
      req.end();
    });
    out.push({ path, ms: performance.now() - t, status, bytes: body.length });
  }
  agent.destroy();
  return out;
}

export async function getJson(base, path, init = {}) {
  const res = await fetch(base + path, init);
  const text = await res.text();
  try {
    return { status: res.status, headers: res.headers, body: JSON.parse(text) };
  } catch {
    return { status: res.status, headers: res.headers, body: text };
  }
}

/**
 * Ask every path once, `width` at a time (the first request of each: the app computes and caches
 * it); latencies and the wall time of the pass.
 */
export async function coldPass(base, paths, width = 4) {
  const started = performance.now();
  const ms = [];
  let errors = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < paths.length) {
        const path = paths[next++];
        const t = performance.now();
        const ok = await fetch(base + path, { signal: AbortSignal.timeout(30_000) }).then(
          async (r) => (await r.arrayBuffer(), r.ok),
          () => false,
        );
        ms.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  return { requests: paths.length, errors, seconds: Math.round(performance.now() - started) / 1000, latencyMs: summarize(ms) };
}
