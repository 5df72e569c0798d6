// Signals between the API and the chat socket. In-process: one emitter per process, on globalThis,
// because Next loads this module twice. Across instances: revocations are also sent as a NOTIFY
// (lib/realtime/fanout.ts listens), so a session ended on one instance closes its sockets on all.
// Changes to what an account may do (an AI account's permissions) travel the same way, so open
// sockets re-read their actor before their next message instead of re-reading it for every message.
import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { instanceId } from "@/lib/instance";

export type RevokedEvent = { sessionIds: string[]; userId?: string };
/** The NOTIFY payload of a revocation: the origin instance, session ids, the user (all sessions). */
export type RevokedNotice = { i: string; s?: string[]; u?: string };

/** The NOTIFY payload of an account whose rights changed: the origin instance and the user. */
export type ActorChangedNotice = { i: string; u: string };

export const REVOKE_CHANNEL = "expo_session_revoked";
export const ACTOR_CHANNEL = "expo_actor_changed";
/** Ids per NOTIFY: 150 ids of 36 characters stay well under PostgreSQL's 8000-byte payload limit. */
const IDS_PER_NOTICE = 150;

const KEY = Symbol.for("expo-trade.session-events");

class SessionEvents extends EventEmitter {
  emitRevoked(event: RevokedEvent) {
    this.emit("revoked", event);
  }
  onRevoked(listener: (event: RevokedEvent) => void): () => void {
    this.on("revoked", listener);
    return () => this.off("revoked", listener);
  }
  emitActorChanged(userId: string) {
    this.emit("actor-changed", userId);
  }
  onActorChanged(listener: (userId: string) => void): () => void {
    this.on("actor-changed", listener);
    return () => this.off("actor-changed", listener);
  }
}

const g = globalThis as typeof globalThis & { [KEY]?: SessionEvents };
export const sessionEvents: SessionEvents = (g[KEY] ??= new SessionEvents());
sessionEvents.setMaxListeners(0);

/** This process's id, so it can skip its own revocation notices. */
export { instanceId };

/**
 * Close the sockets of revoked sessions here at once, and on every other instance when the
 * transaction that revoked them commits.
 */
export async function publishRevoked(db: Db, event: RevokedEvent): Promise<void> {
  sessionEvents.emitRevoked(event);
  const chunks: string[][] = [];
  for (let i = 0; i < event.sessionIds.length; i += IDS_PER_NOTICE) chunks.push(event.sessionIds.slice(i, i + IDS_PER_NOTICE));
  if (chunks.length === 0 && event.userId) chunks.push([]);
  for (const s of chunks) {
    const notice: RevokedNotice = {
      i: instanceId(),
      s,
      ...(event.userId ? { u: event.userId } : {}),
    };
    await db.execute(sql`select pg_notify(${REVOKE_CHANNEL}, ${JSON.stringify(notice)})`);
  }
}

/**
 * Tell every socket of `userId` (here at once, everywhere when the transaction commits) that the
 * account's rights changed. The local signal may come before the commit; the NOTIFY, which this
 * instance hears too, comes after it, so a socket that re-read too early re-reads again.
 */
export async function publishActorChanged(db: Db, userId: string): Promise<void> {
  sessionEvents.emitActorChanged(userId);
  const notice: ActorChangedNotice = { i: instanceId(), u: userId };
  await db.execute(sql`select pg_notify(${ACTOR_CHANNEL}, ${JSON.stringify(notice)})`);
}
