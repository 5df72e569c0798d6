// Scenario 4: /ws/chat with many connected sockets, messages between random pairs, against a bare
// `ws` relay doing the same routing that stores each message with one INSERT in the same database
// (bench/servers/ws-relay.mjs): storing before delivering is the contract.
import { rssSampler } from "../lib/proc.mjs";
import { median, pairedRatio } from "../lib/stats.mjs";
import { pairSet } from "../lib/rand.mjs";
import { chatLoad, closeAll, connectAll } from "../lib/ws-load.mjs";
import { alternate, profiled } from "./common.mjs";
import { row } from "./http.mjs";

export async function chatScenario(ctx) {
  const { app, cfg, manifest } = ctx;
  const relay = await ctx.baseline("ws-relay", "bench/servers/ws-relay.mjs", {});
  const users = manifest.sellers.slice(0, cfg.sockets);
  const pairs = pairSet(users.length, users.length * 5);
  if (users.length !== 1000 && users.length !== 200) throw new Error("bench/generate.ts opens conversations for 1,000 or 200 sockets");
  const appSockets = await connectAll(app.base, users);
  const relaySockets = await connectAll(relay.base, users);
  // The pairs' conversations exist already (bench/generate.ts opens them), so the rounds measure
  // messages in existing conversations.
  const rss = [rssSampler(app.pid), rssSampler(relay.pid)];
  const closed = (sockets) => (s) => chatLoad({ sockets, users, pairs, mode: "closed", window: 200, seconds: s });
  const { a, b } = await alternate(cfg, closed(appSockets), closed(relaySockets));
  const [appRss, relayRss] = rss.map((x) => x.stop());
  const open = await chatLoad({ sockets: appSockets, users, pairs, mode: "open", rate: 2000, seconds: cfg.openSeconds, tag: "o" });
  const relayOpen = await chatLoad({ sockets: relaySockets, users, pairs, mode: "open", rate: 2000, seconds: cfg.openSeconds, tag: "o" });
  const profile = await profiled(app, cfg.profileSeconds, closed(appSockets));
  closeAll(appSockets);
  closeAll(relaySockets);
  await relay.stop();
  const ratio = pairedRatio(
    a.map((x) => x.msgPerSec),
    b.map((x) => x.msgPerSec),
  );
  const p99 = open.deliveryMs.p99;
  const errors = a.concat(b, [open]).reduce((n, x) => n + x.errors + x.lost, 0);
  return row(4, `/ws/chat, ${users.length} sockets, messages between random pairs vs bare ws relay storing each message (one INSERT)`, {
    ratio,
    ratioOf: "msg/s",
    ours: {
      msgPerSec: median(a.map((x) => x.msgPerSec)),
      p50: open.deliveryMs.p50,
      p99,
      openLoop: { rate: 2000, msgPerSec: open.msgPerSec, lost: open.lost, errors: open.errors },
    },
    baseline: { msgPerSec: median(b.map((x) => x.msgPerSec)), p50: relayOpen.deliveryMs.p50, p99: relayOpen.deliveryMs.p99 },
    rss: { app: appRss.maxMb, baseline: relayRss.maxMb },
    target: "msg/s >= 0.7x; delivery p99 <= 10 ms at 2,000 msg/s",
    met: ratio.median >= 0.7 && p99 <= 10 && open.lost === 0,
    measured: `${ratio.median}x; p99 ${p99} ms at 2,000 msg/s (${open.lost} lost, ${errors} errors/lost in all)`,
    profile,
    raw: { a, b, open, relayOpen },
  });
}
