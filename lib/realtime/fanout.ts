// Chat fan-out through the database (contract 8). Each delivery is a NOTIFY sent inside the
// transaction that stores the message, so the database hands it to every instance's LISTEN only
// once that transaction commits: a message is never delivered before it is stored, a rolled-back
// one never at all, and every caller of the service (REST, socket, later MCP) delivers without
// extra plumbing. Every instance, the sending one included, delivers to its own sockets from the
// notification alone, so none delivers twice. PGlite is one in-process session: the same NOTIFY
// reaches this process's own listener, which is the in-process delivery.
import { sql } from "drizzle-orm";
import type { Db, DbHandle } from "@/lib/db/client";
import type { ChatMessage } from "@/lib/schemas/chat";
import { REVOKE_CHANNEL, instanceId, sessionEvents, type RevokedNotice } from "./events";

export const CHAT_CHANNEL = "expo_chat";
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const PAYLOAD_LIMIT = 7900;

/** What travels: the whole message when it fits, else its id (receivers load it). */
export type ChatNotice = { m: ChatMessage; o?: string } | { id: string; from: string; to: string; o?: string };

/** Queue a delivery of `message`; `originSocket` (the socket that sent it) gets an ack instead. */
export async function notifyMessage(db: Db, message: ChatMessage, originSocket?: string): Promise<void> {
  let payload = JSON.stringify({ m: message, o: originSocket } satisfies ChatNotice);
  if (Buffer.byteLength(payload) > PAYLOAD_LIMIT) {
    payload = JSON.stringify({ id: message.id, from: message.from, to: message.to, o: originSocket } satisfies ChatNotice);
  }
  await db.execute(sql`select pg_notify(${CHAT_CHANNEL}, ${payload})`);
}

export type FanoutHandlers = { message: (notice: ChatNotice) => void };

/**
 * LISTEN on the chat and revocation channels of the process's database. postgres.js keeps a
 * connection of its own for it and re-subscribes after reconnecting; notices sent while it was
 * away are lost (clients catch up from GET /api/chat/messages).
 */
export async function listenFanout(handle: DbHandle, handlers: FanoutHandlers): Promise<() => Promise<void>> {
  const onChat = (payload: string) => {
    const notice = parse<ChatNotice>(payload);
    if (notice) handlers.message(notice);
  };
  const onRevoke = (payload: string) => {
    const notice = parse<RevokedNotice>(payload);
    // This instance already acted on its own revocations when it made them.
    if (notice && notice.i !== instanceId()) sessionEvents.emitRevoked({ sessionIds: notice.s ?? [], userId: notice.u });
  };
  if (handle.kind === "pglite") {
    const offs = [await handle.client.listen(CHAT_CHANNEL, onChat), await handle.client.listen(REVOKE_CHANNEL, onRevoke)];
    return async () => {
      for (const off of offs) await off().catch(() => {});
    };
  }
  const subs = [await handle.client.listen(CHAT_CHANNEL, onChat), await handle.client.listen(REVOKE_CHANNEL, onRevoke)];
  return async () => {
    for (const s of subs) await s.unlisten().catch(() => {});
  };
}

function parse<T>(payload: string): T | null {
  try {
    const v = JSON.parse(payload) as unknown;
    return v && typeof v === "object" ? (v as T) : null;
  } catch {
    return null;
  }
}
