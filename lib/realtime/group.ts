// Group commit for socket messages: frames that arrive while a group is being stored wait and go
// together in the next transaction (one multi-row INSERT, one NOTIFY), which starts as soon as the
// previous one finished; when idle, a frame waits only for the current turn of the event loop.
// Groups are stored one after another, so per conversation the messages are stored, acked and
// delivered in the order they were queued. One queue per process, on globalThis.
import { ApiError } from "@/lib/errors";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { auditOutcome } from "@/lib/gate/gate";
import { storeBatch, type SendEntry, type SendResult } from "@/lib/services/chat/batch";

/** `dropped`: the socket closed before its message's turn (nothing stored, nobody to answer). */
export type Outcome = SendResult | { ok: false; dropped: true };

type Pending = {
  entry: SendEntry;
  live: () => boolean;
  resolve: (o: Outcome) => void;
};

class GroupCommit {
  private pending: Pending[] = [];
  private running = false;

  submit(entry: SendEntry, live: () => boolean): Promise<Outcome> {
    return new Promise((resolve) => {
      this.pending.push({ entry, live, resolve });
      if (!this.running) {
        this.running = true;
        void this.drain();
      }
    });
  }

  private async drain() {
    try {
      while (this.pending.length) {
        // Let the frames already read from the network join: on PGlite the queries run on this
        // thread, so without a turn of the event loop nothing new would ever arrive meanwhile.
        await new Promise((r) => setImmediate(r));
        const group = this.pending.splice(0, env().CHAT_GROUP_MAX).filter((p) => p.live() || (p.resolve({ ok: false, dropped: true }), false));
        if (group.length) await this.flush(group);
      }
    } finally {
      this.running = false;
    }
  }

  private async flush(group: Pending[]) {
    const db = await getDb().catch(() => null);
    let results: Outcome[];
    try {
      if (!db) throw new Error("database unavailable");
      results = await db.transaction((tx) =>
        storeBatch(
          tx,
          group.map((p) => p.entry),
        ),
      );
    } catch (err) {
      if (group.length > 1) console.warn(`chat: a group of ${group.length} failed (${(err as Error).message}); storing one by one`);
      results = [];
      // One transaction each, so every message gets its own exact answer.
      for (const p of group) results.push(await this.one(p.entry));
    }
    group.forEach((p, i) => p.resolve(results[i]!));
  }

  private async one(entry: SendEntry): Promise<Outcome> {
    try {
      const db = await getDb();
      try {
        const [r] = await db.transaction((tx) => storeBatch(tx, [entry]));
        return r!;
      } catch (err) {
        // Refused by the database itself: audited on its own, as the gate does.
        if (entry.audit)
          await auditOutcome(db, entry.actor, entry.audit, {
            error: err,
          }).catch((e: unknown) => console.error("audit write failed", e));
        throw err;
      }
    } catch (err) {
      if (err instanceof ApiError) return { ok: false, error: err };
      console.error("chat socket: sending failed", err);
      return {
        ok: false,
        error: new ApiError("internal_error", "The message could not be sent; retry shortly"),
      };
    }
  }
}

const KEY = Symbol.for("expo-trade.chat-group-commit");
const g = globalThis as typeof globalThis & { [KEY]?: GroupCommit };
export const groupCommit: GroupCommit = (g[KEY] ??= new GroupCommit());
