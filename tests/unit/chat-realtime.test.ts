import { describe, expect, it } from "vitest";
import { ChatHub, type Peer } from "@/lib/realtime/hub";
import { TokenBuckets } from "@/lib/realtime/rate";

describe("TokenBuckets", () => {
  it("allows a burst of capacity, then refills evenly over the window", () => {
    const b = new TokenBuckets(3, 3000);
    const t0 = 1_000_000;
    expect([b.take("u", t0), b.take("u", t0), b.take("u", t0)].every((r) => r.ok)).toBe(true);
    expect(b.take("u", t0)).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(b.take("other", t0).ok).toBe(true);
    expect(b.take("u", t0 + 999).ok).toBe(false);
    expect(b.take("u", t0 + 2000).ok).toBe(true);
  });

  it("prunes refilled buckets only", () => {
    const b = new TokenBuckets(2, 1000);
    b.take("a", 0);
    b.take("a", 0);
    b.prune(500);
    expect(b.take("a", 500).ok).toBe(true);
    expect(b.take("a", 500).ok).toBe(false);
  });
});

describe("ChatHub", () => {
  const peer = (id: string, userId: string, got: string[]): Peer => ({ id, userId, send: (t) => got.push(`${id}:${(JSON.parse(t) as { id: string }).id}`) });

  it("delivers to every socket of the recipient and the sender's other sockets", () => {
    const hub = new ChatHub();
    const got: string[] = [];
    for (const p of [peer("a1", "A", got), peer("a2", "A", got), peer("b1", "B", got), peer("c1", "C", got)]) hub.add(p);
    const m = { id: "m1", conversationId: "c", from: "A", to: "B", content: "hi", sentByAI: false, createdAt: new Date(0).toISOString() };
    expect(hub.deliver(m, "a1")).toBe(2);
    expect(got.sort()).toEqual(["a2:m1", "b1:m1"]);
    expect(hub.sockets("A")).toBe(2);
  });

  it("forgets users whose last socket closed", () => {
    const hub = new ChatHub();
    const p = peer("x", "X", []);
    hub.add(p);
    hub.remove(p);
    expect(hub.has("X")).toBe(false);
  });
});
