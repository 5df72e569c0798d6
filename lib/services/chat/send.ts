// Send a chat message (contract 5): to a conversation the sender is in, or to a user (by id or
// username), optionally about a product, which starts the pair's conversation or continues it.
// One code path for REST and the socket: both store through storeBatch (./batch.ts), REST as a
// group of one, so the checks, the row and the delivery are the same whichever door was used.
import { signedInActor } from "@/lib/auth/actor";
import type { Ctx } from "@/lib/gate/context";
import type { ChatMessage, Conversation, SendMessageInput } from "@/lib/schemas/chat";
import { storeBatch } from "./batch";
import { viewerOf } from "./store";
import { conversationView } from "./views";

export type SendOptions = {
  /** The socket the message came from: it gets an ack, the sender's other sockets the message. */
  originSocket?: string;
};

/**
 * Store the message and queue its delivery in one transaction (inside the caller's, if any: the
 * route wrapper's audit transaction for AI accounts), so it is delivered only once it is stored.
 */
export async function sendMessage(ctx: Ctx, input: SendMessageInput, opts: SendOptions = {}): Promise<{ message: ChatMessage; conversation: Conversation }> {
  const actor = signedInActor(ctx.actor);
  return ctx.db.transaction(async (tx) => {
    const [result] = await storeBatch(tx, [{ actor, input, originSocket: opts.originSocket }]);
    if (!result!.ok) throw result!.error;
    const message = result!.message;
    return {
      message,
      conversation: (await conversationView(tx, viewerOf(actor), message.conversationId))!,
    };
  });
}
