// In-process signals between the API and the chat socket (one emitter per process, on globalThis,
// because Next loads this module twice).
import { EventEmitter } from "node:events";

export type RevokedEvent = { sessionIds: string[]; userId?: string };

const KEY = Symbol.for("expo-trade.session-events");

class SessionEvents extends EventEmitter {
  emitRevoked(event: RevokedEvent) {
    this.emit("revoked", event);
  }
  onRevoked(listener: (event: RevokedEvent) => void): () => void {
    this.on("revoked", listener);
    return () => this.off("revoked", listener);
  }
}

const g = globalThis as typeof globalThis & { [KEY]?: SessionEvents };
export const sessionEvents: SessionEvents = (g[KEY] ??= new SessionEvents());
sessionEvents.setMaxListeners(0);
