// A socket `message` frame, handled as POST /api/chat/messages would be: the AI permission first,
// validation, the same rules and rows (lib/services/chat/batch.ts), and for AI accounts the audit
// row in the message's transaction. Frames go into the process's group commit (./group.ts); the
// answer, an ack for the sending socket or an error frame, follows when the group has committed,
// and the socket stays open. The actor is the socket's own, kept current by the socket server
// (re-read when the account's rights change or the session ends), not re-read per message.
import { ApiError } from "@/lib/errors";
import { validate } from "@/lib/api/validate";
import type { SignedInActor } from "@/lib/auth/actor";
import { MessageFrame, type SendMessageInput } from "@/lib/schemas/chat";
import { groupCommit } from "./group";
import type { TokenBuckets } from "./rate";

export type MessageContext = {
  actor: SignedInActor;
  socketId: string;
  ip: string;
  buckets: TokenBuckets;
  send: (frame: object) => void;
  /** What every answer to the frame repeats of it (its `clientId`). */
  echo?: object;
  /** Whether the socket is still open (a closed socket's queued messages are not stored). */
  live: () => boolean;
  /** The flood bucket was already charged when the frame arrived. */
  slotTaken?: boolean;
};

/** The answer to a message frame over the flood limit. */
export function rateLimitedFrame(frame: Record<string, unknown>, retryAfterMs: number) {
  const ref = typeof frame.ref === "string" ? { ref: frame.ref.slice(0, 100) } : {};
  return {
    type: "error",
    code: "rate_limited",
    message: `Too many messages; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
    retryAfterMs,
    ...ref,
  };
}

/**
 * Queue the frame's message and return at once: the socket's next frame queues behind it, and
 * the answers go out in queue order as the groups commit.
 */
export function handleMessageFrame(c: MessageContext, frame: Record<string, unknown>): void {
  const ref = typeof frame.ref === "string" ? frame.ref.slice(0, 100) : undefined;
  const withRef = { ...(ref ? { ref } : {}), ...c.echo };

  if (!c.slotTaken) {
    const slot = c.buckets.take(c.actor.user.id);
    if (!slot.ok) return c.send({ ...rateLimitedFrame(frame, slot.retryAfterMs), ...c.echo });
  }
  let input: SendMessageInput | ApiError;
  try {
    input = validate(MessageFrame, frame, "message");
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    input = err;
  }
  const audit = {
    permission: "chat.send" as const,
    ip: c.ip,
    details: (m: { id: string; conversationId: string }) => `WS /ws/chat message ${m.id} in conversation ${m.conversationId}`,
  };
  void groupCommit.submit({ actor: c.actor, input, originSocket: c.socketId, audit }, c.live).then((o) => {
    if (o.ok)
      return c.send({
        type: "ack",
        id: o.message.id,
        conversationId: o.message.conversationId,
        createdAt: o.message.createdAt,
        ...withRef,
      });
    if ("dropped" in o) return;
    const err = o.error;
    c.send({
      type: "error",
      code: err.code,
      message: err.message,
      ...(err.errors ? { errors: err.errors } : {}),
      ...withRef,
    });
  });
}
