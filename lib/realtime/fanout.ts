// Chat fan-out through the database (contract 8). Each delivery is a NOTIFY sent inside the
// transaction that stores the message, so the database hands it to every instance's LISTEN only
// once that transaction commits: a message is never delivered before it is stored, a rolled-back
// one never at all, and every caller of the service (REST, socket, later MCP) delivers without
// extra plumbing. Every instance, the sending one included, delivers to its own sockets from the
// notification alone, so none delivers twice. PGlite is one in-process session: the same NOTIFY
// reaches this process's own listener, which is the in-process delivery.
import type { DbHandle } from "@/lib/db/client";
import type { ChatMessage } from "@/lib/schemas/chat";
import type { Raw } from "@/lib/services/chat/raw";
import { ACTOR_CHANNEL, REVOKE_CHANNEL, instanceId, sessionEvents, type ActorChangedNotice, type RevokedNotice } from "./events";

export const CHAT_CHANNEL = "expo_chat";
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const PAYLOAD_LIMIT = 7900;

/**
 * One delivery: the whole message when it fits, else its id (receivers load it). `c`: who else
 * gets it besides sender and recipient (a store's owner and its AI_SELLER, lib/services/chat/store.ts).
 */
export type Delivery = { m: ChatMessage; o?: string; c?: string[] } | { id: string; from: string; to: string; o?: string; c?: string[] };
/** A stored message to deliver: the socket it came from, and its copies (`cc`). */
export type Sent = { message: ChatMessage; originSocket?: string; cc?: string[] };
/** A notification for one user (lib/services/notify/notify.ts sends it on this channel too). */
export type NotificationNotice = { u: string; id: string; kind: string; subjectId: string; title: string };
/** What travels: the deliveries of one commit, in order (or a single one, as older instances send). */
export type ChatNotice = Delivery | { ms: Delivery[] } | { n: NotificationNotice };

/** The deliveries of `sent`, in order, packed into as few NOTIFY payloads as fit. */
export function deliveryPayloads(sent: Sent[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = 0;
  const OVERHEAD = '{"ms":[]}'.length;
  for (const { message, originSocket, cc } of sent) {
    let item = JSON.stringify({
      m: message,
      o: originSocket,
      c: cc,
    } satisfies Delivery);
    let size = Buffer.byteLength(item);
    if (size + OVERHEAD > PAYLOAD_LIMIT) {
      item = JSON.stringify({
        id: message.id,
        from: message.from,
        to: message.to,
        o: originSocket,
        c: cc,
      } satisfies Delivery);
      size = Buffer.byteLength(item);
    }
    if (batch.length && bytes + size + 1 + OVERHEAD > PAYLOAD_LIMIT) {
      payloads.push(`{"ms":[${batch.join(",")}]}`);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size + 1;
  }
  if (batch.length) payloads.push(`{"ms":[${batch.join(",")}]}`);
  return payloads;
}

// One statement for every payload of a commit; the database delivers them in this order.
const NOTIFY_ALL = `select count(pg_notify($1, p)) from json_array_elements_text($2::json) as p`;

/** Queue the deliveries of messages stored in the transaction `raw` runs in. */
export async function notifyMessages(raw: Raw, sent: Sent[]): Promise<void> {
  if (sent.length === 0) return;
  await raw(NOTIFY_ALL, [CHAT_CHANNEL, JSON.stringify(deliveryPayloads(sent))]);
}

export type FanoutHandlers = { message: (delivery: Delivery) => void; notification?: (notice: NotificationNotice) => void };

/**
 * LISTEN on the chat, revocation and actor-change channels of the process's database. postgres.js keeps a
 * connection of its own for it and re-subscribes after reconnecting; notices sent while it was
 * away are lost (clients catch up from GET /api/chat/messages).
 */
export async function listenFanout(handle: DbHandle, handlers: FanoutHandlers): Promise<() => Promise<void>> {
  const onChat = (payload: string) => {
    const notice = parse<ChatNotice>(payload);
    if (!notice) return;
    if ("n" in notice) {
      if (notice.n && typeof notice.n.u === "string") handlers.notification?.(notice.n);
    } else if ("ms" in notice) {
      if (Array.isArray(notice.ms)) for (const d of notice.ms) handlers.message(d);
    } else handlers.message(notice);
  };
  const onRevoke = (payload: string) => {
    const notice = parse<RevokedNotice>(payload);
    // This instance already acted on its own revocations when it made them.
    if (notice && notice.i !== instanceId())
      sessionEvents.emitRevoked({
        sessionIds: notice.s ?? [],
        userId: notice.u,
      });
  };
  const onActor = (payload: string) => {
    const notice = parse<ActorChangedNotice>(payload);
    // Heard from this instance too: it arrives after the commit, unlike the local signal.
    if (notice && typeof notice.u === "string") sessionEvents.emitActorChanged(notice.u);
  };
  if (handle.kind === "pglite") {
    const offs = [
      await handle.client.listen(CHAT_CHANNEL, onChat),
      await handle.client.listen(REVOKE_CHANNEL, onRevoke),
      await handle.client.listen(ACTOR_CHANNEL, onActor),
    ];
    return async () => {
      for (const off of offs) await off().catch(() => {});
    };
  }
  const subs = [
    await handle.client.listen(CHAT_CHANNEL, onChat),
    await handle.client.listen(REVOKE_CHANNEL, onRevoke),
    await handle.client.listen(ACTOR_CHANNEL, onActor),
  ];
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
