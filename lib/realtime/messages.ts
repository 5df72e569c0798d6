// A socket `message` frame, handled as POST /api/chat/messages would be: the session checked again
// (a revoked session or a permission the guardian took away counts at once), the AI permission
// first, validation, the same service, and for AI accounts the audit row in the message's
// transaction. The answer is an ack for the sending socket or an error frame; the socket stays open.
import { ApiError } from "@/lib/api/errors";
import { validate } from "@/lib/api/validate";
import type { SignedInActor } from "@/lib/auth/actor";
import { actorForSession } from "@/lib/auth/sessions";
import { getDb, type Db } from "@/lib/db/client";
import { MessageFrame } from "@/lib/schemas/chat";
import { runAudited } from "@/lib/services/ai/audited";
import { storeMessage } from "@/lib/services/chat/send";
import type { TokenBuckets } from "./rate";

export type MessageContext = {
  actor: SignedInActor;
  socketId: string;
  ip: string;
  buckets: TokenBuckets;
  send: (frame: object) => void;
  /** The session ended (or its account was disabled) since the socket authenticated. */
  unauthorized: () => void;
  /** The actor as loaded now, with current permissions. */
  refreshed: (actor: SignedInActor) => void;
  /** The flood bucket was already charged when the frame arrived. */
  slotTaken?: boolean;
};

/** The answer to a message frame over the flood limit. */
export function rateLimitedFrame(frame: Record<string, unknown>, retryAfterMs: number) {
  const ref = typeof frame.ref === "string" ? { ref: frame.ref.slice(0, 100) } : {};
  return { type: "error", code: "rate_limited", message: `Too many messages; retry in ${Math.ceil(retryAfterMs / 1000)} s`, retryAfterMs, ...ref };
}

export async function handleMessageFrame(c: MessageContext, frame: Record<string, unknown>): Promise<void> {
  const ref = typeof frame.ref === "string" ? frame.ref.slice(0, 100) : undefined;
  const error = (code: string, message: string, extra: object = {}) => c.send({ type: "error", code, message, ...extra, ...(ref ? { ref } : {}) });

  if (!c.slotTaken) {
    const slot = c.buckets.take(c.actor.user.id);
    if (!slot.ok) return c.send(rateLimitedFrame(frame, slot.retryAfterMs));
  }
  const db = await getDb();
  const actor = await actorForSession(db, c.actor.session.id, c.actor.user.id, c.actor.session.via);
  if (!actor) return c.unauthorized();
  c.refreshed(actor);

  try {
    const sent = await runAudited(
      db,
      actor,
      { permission: "chat.send", ip: c.ip, details: (m) => `WS /ws/chat message ${m.id} in conversation ${m.conversationId}` },
      async (tx: Db) => storeMessage(tx, actor, parseFrame(frame), { originSocket: c.socketId }),
    );
    c.send({ type: "ack", id: sent.id, conversationId: sent.conversationId, createdAt: sent.createdAt, ...(ref ? { ref } : {}) });
  } catch (err) {
    if (err instanceof ApiError) return error(err.code, err.message, err.errors ? { errors: err.errors } : {});
    console.error("chat socket: sending failed", err);
    error("internal_error", "The message could not be sent; retry shortly");
  }
}

function parseFrame(frame: Record<string, unknown>) {
  return validate(MessageFrame, frame, "message");
}
