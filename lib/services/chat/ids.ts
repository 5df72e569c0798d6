// Message ids: UUID v7 that never go backwards within the process (RFC 9562, method 1: the 12
// bits after the version are a counter within the millisecond). Conversations list messages by
// (created_at, id), and a group commit stamps its messages microseconds apart in queue order, so
// ids taken in the same order must sort the same way: plain v7 ids are random within a millisecond.
import { randomBytes } from "node:crypto";

const KEY = Symbol.for("expo-trade.chat-ids");
type Clock = { ms: number; seq: number };
const g = globalThis as typeof globalThis & { [KEY]?: Clock };
const clock: Clock = (g[KEY] ??= { ms: 0, seq: 0 });

export function messageId(): string {
  const now = Date.now();
  if (now > clock.ms) {
    clock.ms = now;
    clock.seq = 0;
  } else if (++clock.seq > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next millisecond rather than repeat an order.
    clock.ms++;
    clock.seq = 0;
  }
  const t = clock.ms.toString(16).padStart(12, "0");
  const r = randomBytes(8);
  r[0] = (r[0]! & 0x3f) | 0x80;
  const tail = r.toString("hex");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${clock.seq.toString(16).padStart(3, "0")}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
