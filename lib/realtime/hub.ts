// The chat hub: which sockets of which users this process holds, and delivery to them. One per
// process on globalThis: Next loads modules twice, and every copy must reach the same sockets.
import type { ChatMessage } from "@/lib/schemas/chat";

export type Peer = {
  /** Unique across instances, so a delivery can name the socket that sent it. */
  id: string;
  userId: string;
  send: (text: string) => void;
};

export class ChatHub {
  private readonly byUser = new Map<string, Set<Peer>>();

  add(peer: Peer) {
    let set = this.byUser.get(peer.userId);
    if (!set) this.byUser.set(peer.userId, (set = new Set()));
    set.add(peer);
  }

  remove(peer: Peer) {
    const set = this.byUser.get(peer.userId);
    if (!set) return;
    set.delete(peer);
    if (set.size === 0) this.byUser.delete(peer.userId);
  }

  has(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** Count of this process's sockets of a user (tests, diagnostics). */
  sockets(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /**
   * The recipient gets the message on every socket; so does the sender, except on the socket it
   * came from (that one gets an ack), so the sender's other tabs stay in step; and so does every
   * `cc` account (a store's owner and its AI_SELLER, in the store's conversations).
   */
  deliver(message: ChatMessage, originSocket?: string, cc: readonly string[] = []): number {
    const text = JSON.stringify({ type: "message", ...message });
    let sent = 0;
    for (const user of new Set([message.to, ...cc])) {
      if (user === message.from) continue;
      for (const p of this.byUser.get(user) ?? []) {
        p.send(text);
        sent++;
      }
    }
    for (const p of this.byUser.get(message.from) ?? []) {
      if (p.id === originSocket) continue;
      p.send(text);
      sent++;
    }
    return sent;
  }

  /**
   * A notification (contract 9.4) to every socket of its user; an AI account's sockets pass it on
   * only while it holds `chat.read`, like messages (the peer's send decides).
   */
  notify(n: { u: string; id: string; kind: string; subjectId: string; title: string }): number {
    const peers = this.byUser.get(n.u);
    if (!peers) return 0;
    const text = JSON.stringify({ type: "notification", id: n.id, kind: n.kind, subjectId: n.subjectId, title: n.title });
    for (const p of peers) p.send(text);
    return peers.size;
  }
}

const KEY = Symbol.for("expo-trade.chat-hub");
const g = globalThis as typeof globalThis & { [KEY]?: ChatHub };
export const chatHub: ChatHub = (g[KEY] ??= new ChatHub());
