// Deliveries from the database's NOTIFY (./fanout.ts) handed to the hub in the order they came:
// a message too large for a NOTIFY payload is loaded first, and the ones after it wait for it, so
// a conversation is delivered in order.
import { getDb } from "@/lib/db/client";
import { loadMessage } from "@/lib/services/chat/views";
import type { Delivery } from "./fanout";
import type { ChatHub } from "./hub";

export class DeliveryOrder {
  /** Deliveries still waiting for a large message to load: later ones queue behind (order). */
  private deliveries: Promise<void> | null = null;

  constructor(private readonly hub: ChatHub) {}

  deliver(d: Delivery) {
    if ("m" in d) {
      const cc = copies(d.c);
      if (!this.deliveries) this.hub.deliver(d.m, d.o, cc);
      else
        this.after(() => {
          this.hub.deliver(d.m, d.o, cc);
        });
      return;
    }
    const cc = copies(d.c);
    if (!this.hub.has(d.to) && !this.hub.has(d.from) && !cc.some((u) => this.hub.has(u))) return;
    // Too large for a NOTIFY payload: load it. Outside the callback, which PGlite runs in the
    // middle of the query that delivered the notification. Loading starts now; the messages
    // after it wait, so a conversation is delivered in order.
    const loaded = new Promise((r) => setImmediate(r))
      .then(() => getDb())
      .then((db) => loadMessage(db, d.id))
      .catch((err: unknown) => {
        console.error("chat fan-out: loading a message failed", err);
        return null;
      });
    this.after(async () => {
      const m = await loaded;
      if (m) this.hub.deliver(m, d.o, cc);
    });
  }

  private after(step: () => void | Promise<void>) {
    const tail = (this.deliveries ?? Promise.resolve()).then(step).catch(() => {});
    this.deliveries = tail;
    void tail.then(() => {
      if (this.deliveries === tail) this.deliveries = null;
    });
  }
}

/** A notice's copies, as sent by this code (older instances send none). */
function copies(c: unknown): string[] {
  return Array.isArray(c) ? c.filter((u): u is string => typeof u === "string") : [];
}
