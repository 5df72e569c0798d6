import { describe, expect, it } from "vitest";
import { ChatHub, type Peer } from "@/lib/realtime/hub";
import { FrameBudget, TokenBuckets } from "@/lib/realtime/rate";
import { headerGetter, isCrossSite, ownOrigins } from "@/lib/auth/same-origin";

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

  it("delivers copies to a store's side (cc) once each, never back to the sender", () => {
    const hub = new ChatHub();
    const got: string[] = [];
    for (const p of [peer("ai1", "AI", got), peer("o1", "O", got), peer("b1", "B", got)]) hub.add(p);
    const m = { id: "m2", conversationId: "c", from: "AI", to: "B", content: "hi", sentByAI: true, createdAt: new Date(0).toISOString() };
    expect(hub.deliver(m, "ai1", ["O", "B", "AI"])).toBe(2);
    expect(got.sort()).toEqual(["b1:m2", "o1:m2"]);
  });

  it("forgets users whose last socket closed", () => {
    const hub = new ChatHub();
    const p = peer("x", "X", []);
    hub.add(p);
    hub.remove(p);
    expect(hub.has("X")).toBe(false);
  });
});

describe("FrameBudget", () => {
  it("admits a burst, drops what follows telling the client once, and closes a persistent flood", () => {
    const b = new FrameBudget(3, 1, 1000, 0);
    expect([b.take(10, 0), b.take(10, 0), b.take(10, 0)].map((v) => v.verdict)).toEqual(["ok", "ok", "ok"]);
    expect(b.take(10, 0)).toEqual({ verdict: "throttled", first: true, retryAfterMs: 1000 });
    expect(b.take(10, 0)).toMatchObject({ verdict: "throttled", first: false });
    expect(b.take(10, 0)).toMatchObject({ verdict: "throttled", first: false });
    expect(b.take(10, 0)).toEqual({ verdict: "close" });
  });

  it("refills over time and charges large frames more", () => {
    const b = new FrameBudget(3, 1, 1000, 0);
    // 2,500 bytes cost three tokens: the allowance is gone after one such frame.
    expect(b.take(2500, 0).verdict).toBe("ok");
    expect(b.take(1, 0).verdict).toBe("throttled");
    expect(b.take(1, 1000).verdict).toBe("ok");
    // Still the same episode until the allowance has refilled completely.
    expect(b.take(1, 1000)).toMatchObject({ verdict: "throttled", first: false });
    expect(b.take(1, 4000).verdict).toBe("ok");
    expect(b.take(1, 4000).verdict).toBe("ok");
    expect(b.take(1, 4000).verdict).toBe("ok");
    expect(b.take(1, 4000)).toMatchObject({ verdict: "throttled", first: true });
  });

  it("closes a client that keeps sending faster than the refill, though some frames get through", () => {
    const b = new FrameBudget(10, 10, 1000, 0);
    const verdicts: string[] = [];
    // 20 frames a second against a refill of 10: half pass, the drops add up to a close.
    for (let t = 0; t < 5000 && verdicts.at(-1) !== "close"; t += 50) verdicts.push(b.take(1, t).verdict);
    expect(verdicts.at(-1)).toBe("close");
    expect(verdicts.filter((v) => v === "ok").length).toBeGreaterThan(10);
  });
});

describe("ownOrigins", () => {
  const host = (h: string) => headerGetter({ host: h });
  const origins = ownOrigins("https://expo.example.com/", " https://app.example.com ,not a url");
  it("allows the site's own origins and clients without Origin", () => {
    expect(origins.allows(undefined, host("internal:3000"))).toBe(true);
    expect(origins.allows("https://expo.example.com", host("internal:3000"))).toBe(true);
    expect(origins.allows("https://app.example.com", host("internal:3000"))).toBe(true);
    // Same-origin: the page's origin names the host the browser connected to.
    expect(origins.allows("http://localhost:3000", host("localhost:3000"))).toBe(true);
    expect(origins.allows("http://LOCALHOST:3000", host("localhost:3000"))).toBe(true);
  });

  it("refuses every other origin, null and garbage", () => {
    for (const o of [
      "https://evil.example",
      "https://expo.example.com.evil.example",
      "http://expo.example.com",
      "https://expo.example.com:8443",
      "null",
      "",
      "javascript:alert(1)",
      "file:///etc",
    ]) {
      expect(origins.allows(o, host("internal:3000")), o).toBe(false);
    }
    expect(origins.allows("http://localhost:3001", host("localhost:3000"))).toBe(false);
  });

  it("is the same rule for cookie-carrying writes: a listed sibling origin passes, other origins of the site do not", () => {
    const from = (origin: string, site: string) => headerGetter({ host: "internal:3000", origin, "sec-fetch-site": site });
    expect(isCrossSite(from("https://app.example.com", "same-site"), origins)).toBe(false);
    expect(isCrossSite(from("https://shop.example.com", "same-site"), origins)).toBe(true);
    expect(isCrossSite(from("https://app.example.com", "cross-site"), origins)).toBe(true);
    expect(isCrossSite(from("https://expo.example.com", "same-origin"), origins)).toBe(false);
    expect(isCrossSite(from("https://evil.example", "same-origin"), origins)).toBe(true);
  });
});
