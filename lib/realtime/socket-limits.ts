// The chat socket's limits (lib/env.ts; the tests shorten some) and the flood penalty: an account
// whose socket was closed for flooding may not open another on this instance for a while.
import { env } from "@/lib/env";

/** A frame costs one token per started 16 KiB (a 5,000-character message fits in one). */
export const FRAME_COST_UNIT = 16 * 1024;

export type SocketLimits = ReturnType<typeof socketLimits>;

/** Read when the server is built. */
export function socketLimits() {
  const e = env();
  return {
    /** No auth within this time: close 4401. */
    authTimeoutMs: e.WS_AUTH_TIMEOUT_MS,
    /** Flood limit per user and instance: this many messages at once, refilled over the window. */
    rateMessages: e.WS_RATE_LIMIT_MESSAGES,
    rateWindowMs: e.WS_RATE_LIMIT_WINDOW_MS,
    /** Frames per connection (any type, pings included): this many at once, refilled per second. */
    frameBurst: e.WS_FRAME_BURST,
    framesPerSecond: e.WS_FRAMES_PER_SECOND,
    /** After a flood, the account's new sockets on this instance are refused for as long as a full allowance takes to refill. */
    floodCooldownMs: (e.WS_FRAME_BURST / e.WS_FRAMES_PER_SECOND) * 1000,
    /** Ping every connection this often; one that has not answered the previous ping is terminated. */
    pingIntervalMs: e.WS_PING_INTERVAL_MS,
    /**
     * A socket's actor is re-read before its next message when the account's rights changed (an
     * event), and at the latest this long after the last read (an expired session, a notice lost
     * while the LISTEN connection was away).
     */
    actorMaxAgeMs: e.WS_ACTOR_MAX_AGE_MS,
  };
}

/** Accounts whose socket was closed for flooding: user id => refused until. */
export class FloodPenalties {
  private readonly until = new Map<string, number>();

  constructor(private readonly cooldownMs: number) {}

  punish(userId: string) {
    this.until.set(userId, Date.now() + this.cooldownMs);
  }

  cooling(userId: string): boolean {
    const until = this.until.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(userId);
    return false;
  }

  /** Forget penalties that ran out. */
  prune() {
    for (const userId of this.until.keys()) this.cooling(userId);
  }
}
