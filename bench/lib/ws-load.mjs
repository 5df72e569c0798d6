// /ws/chat load: N authenticated sockets, messages between random pairs of a fixed set. Closed
// loop (a window of messages in flight, for msg/s) or open loop (a fixed send rate, delivery
// latency from the intended send time to the recipient's frame).
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { rng } from "./rand.mjs";
import { summarize } from "./stats.mjs";

export async function connectAll(base, users, { concurrency = 50 } = {}) {
  const url = base.replace(/^http/, "ws") + "/ws/chat";
  const sockets = new Array(users.length);
  let next = 0;
  const errors = [];
  async function one(i) {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.setMaxListeners(0);
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error("auth timeout")), 30_000);
      ws.once("error", reject);
      ws.once("open", () => ws.send(JSON.stringify({ type: "auth", token: users[i].token })));
      const onMsg = (d) => {
        const f = JSON.parse(d.toString());
        if (f.type === "ready") {
          clearTimeout(t);
          ws.off("message", onMsg);
          resolve();
        } else if (f.type === "error") reject(new Error(JSON.stringify(f)));
      };
      ws.on("message", onMsg);
    });
    ws.on("error", () => {});
    sockets[i] = ws;
  }
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < users.length) {
        const i = next++;
        await one(i).catch((e) => errors.push(String(e)));
      }
    }),
  );
  if (errors.length) throw new Error(`${errors.length} sockets failed to connect: ${errors[0]}`);
  return sockets;
}

/**
 * Drive messages over connected sockets. mode "closed": keep `window` messages in flight for
 * `seconds`; mode "open": send at `rate` per second for `seconds`. A message counts as delivered
 * when the recipient's socket receives it. `sequential` walks the pairs in order (opens them all).
 * At most `maxPending` messages are outstanding; a send due beyond that is dropped (lost).
 */
export async function chatLoad({ sockets, users, pairs, mode, seconds, window = 200, rate = 1000, tag = "m", sequential = false, maxPending = 2000 }) {
  const r = rng(11);
  const pending = new Map(); // content -> intended send time
  const latencies = [];
  let delivered = 0;
  let errors = 0;
  let seq = 0;
  let dropped = 0;
  let stopAt = Infinity;
  let onDelivered = () => {};
  const handlers = sockets.map((ws) => {
    const h = (d) => {
      const s = d.toString();
      if (s.includes('"type":"ack"')) return;
      const f = JSON.parse(s);
      if (f.type === "error") {
        errors++;
        return;
      }
      if (f.type !== "message") return;
      const t = pending.get(f.content);
      if (t === undefined) return;
      pending.delete(f.content);
      latencies.push(performance.now() - t);
      delivered++;
      onDelivered();
    };
    ws.on("message", h);
    return h;
  });
  const send = (intended) => {
    if (pending.size >= maxPending) {
      // Overloaded: not sent, counted as lost (bounds the work queued in the server).
      dropped++;
      return;
    }
    const [a, b] = sequential ? pairs[seq % pairs.length] : pairs[Math.floor(r() * pairs.length)];
    const content = `${tag}${++seq}`;
    pending.set(content, intended);
    sockets[a].send(JSON.stringify({ type: "message", to: users[b].id, content }));
  };
  const t0 = performance.now();
  if (mode === "closed") {
    stopAt = t0 + seconds * 1000;
    await new Promise((resolve) => {
      onDelivered = () => {
        if (performance.now() < stopAt) send(performance.now());
        else if (pending.size === 0) resolve();
      };
      for (let i = 0; i < window; i++) send(performance.now());
      // Whatever is still in flight 5 s after the end is lost.
      setTimeout(resolve, seconds * 1000 + 5000);
    });
  } else {
    const n = Math.round(rate * seconds);
    const interval = 1000 / rate;
    let sent = 0;
    await new Promise((resolve) => {
      const tick = () => {
        const now = performance.now();
        while (sent < n && t0 + sent * interval <= now) send(t0 + sent++ * interval);
        if (sent < n) setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
        else setTimeout(resolve, 5000);
      };
      onDelivered = () => sent >= n && pending.size === 0 && resolve();
      tick();
    });
  }
  const elapsed = mode === "closed" ? seconds : (performance.now() - t0) / 1000;
  sockets.forEach((ws, i) => ws.off("message", handlers[i]));
  return {
    mode,
    seconds,
    sent: seq,
    delivered,
    lost: pending.size + dropped,
    dropped,
    errors,
    msgPerSec: Math.round(delivered / elapsed),
    deliveryMs: summarize(latencies),
  };
}

export function closeAll(sockets) {
  for (const ws of sockets) ws?.terminate();
}
