// Token buckets for socket floods: `capacity` messages at once, refilled evenly over `windowMs`.
// Kept in memory per instance: a flood is a property of one connection's burst, and checking it
// must cost nothing (the database-backed rate tiers of contract 6 cover /api and /mcp).
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly capacity: number,
    readonly windowMs: number,
  ) {}

  /** Take one token; when none is left, how long until one is (ms). */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterMs: number } {
    const perMs = this.capacity / this.windowMs;
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    b.tokens = Math.min(this.capacity, b.tokens + (now - b.at) * perMs);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - b.tokens) / perMs) };
  }

  /**
   * Forget buckets that have refilled (a full bucket is the same as none). Not on disconnect:
   * reconnecting must not reset a flooder's bucket.
   */
  prune(now = Date.now()) {
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * (this.capacity / this.windowMs) >= this.capacity) this.buckets.delete(key);
  }
}

export type FrameVerdict = { verdict: "ok" } | { verdict: "throttled"; first: boolean; retryAfterMs: number } | { verdict: "close" };

/**
 * One connection's frame allowance, checked before a frame is even parsed: `burst` frames at once,
 * refilled at `perSecond`. A frame costs one token per started `unit` bytes, so large frames use
 * the allowance up faster. Frames past it are dropped (the first of an episode gets told); once
 * the dropped cost of one episode exceeds `burst`, the connection is a flood and gets closed. An
 * episode ends only when the allowance has refilled completely: a client that keeps sending faster
 * than the refill is closed even if some of its frames get through in between.
 */
export class FrameBudget {
  private tokens: number;
  private at: number;
  private overdraft = 0;

  constructor(
    readonly burst: number,
    readonly perSecond: number,
    readonly unit: number,
    now = Date.now(),
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(bytes: number, now = Date.now()): FrameVerdict {
    const cost = 1 + Math.floor(bytes / this.unit);
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
    if (this.tokens >= this.burst) this.overdraft = 0;
    if (this.tokens >= 1) {
      // May go below zero: one large frame is still answered, then the connection waits it off.
      this.tokens -= cost;
      return { verdict: "ok" };
    }
    const first = this.overdraft === 0;
    this.overdraft += cost;
    if (this.overdraft > this.burst) return { verdict: "close" };
    return { verdict: "throttled", first, retryAfterMs: Math.ceil(((1 - this.tokens) / this.perSecond) * 1000) };
  }
}
