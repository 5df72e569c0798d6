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
