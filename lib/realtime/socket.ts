// The /ws/chat socket (contract 5). The first frame is { type: "auth", token } (a Bearer JWT), or
// the session cookie on the upgrade authenticates at once; either way the server answers
// { type: "ready", userId }. No auth within 10 s, or a bad token: close 4401. A session revoked
// later (on any instance) closes its sockets with 4401 too. After ready: `message` frames send
// chat messages (./messages.ts), `ping` answers `pong`. Deliveries arrive from the database's
// NOTIFY (./fanout.ts) and go out through the process's hub (./hub.ts).
//
// Abuse limits (docs/security.md, "Chat socket"): a browser handshake from a foreign Origin is
// refused with 403 before the upgrade; every connection has a frame budget (./rate.ts) checked
// before a frame is parsed; a heartbeat terminates connections that stop answering pings; a socket
// the server closes and whose client does not finish the close is cut after a short grace.
//
// This file: the server, the upgrade and each connection's life. One connection's account and its
// re-read after a change of rights: ./socket-client.ts; its frames: ./socket-frames.ts; close codes
// and helpers: ./socket-wire.ts; limits: ./socket-limits.ts; delivery order: ./delivery-order.ts.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { clientIp } from "@/lib/auth/cookies";
import { actorFromCookieHeader } from "@/lib/auth/resolve";
import { configuredOrigins, headerGetter, isCrossSite } from "@/lib/auth/same-origin";
import { getDb, type DbHandle } from "@/lib/db/client";
import { DeliveryOrder } from "./delivery-order";
import { sessionEvents } from "./events";
import { listenFanout } from "./fanout";
import { chatHub, type ChatHub } from "./hub";
import { TokenBuckets } from "./rate";
import { newClient, ready, rereadSoon, type Client } from "./socket-client";
import { admit, onFrame, type SocketShared } from "./socket-frames";
import { FloodPenalties, socketLimits } from "./socket-limits";
import { CLOSE_POLICY, CLOSE_UNAUTHORIZED, closeSocket, MAX_PAYLOAD_BYTES, refuseUpgrade } from "./socket-wire";

export { CLOSE_POLICY, CLOSE_UNAUTHORIZED, MAX_FRAME_BYTES, MAX_PAYLOAD_BYTES } from "./socket-wire";

export class ChatSocketServer {
  // Frames over 64 KiB get an error frame and the socket stays open (contract 5) up to this size;
  // beyond it ws closes the socket (1009) rather than buffer arbitrary amounts per connection.
  // autoPong off: the client's pings are answered in onConnection, within the frame budget.
  readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD_BYTES,
    autoPong: false,
  });
  private readonly clients = new Set<Client>();
  private readonly shared: SocketShared;
  private readonly deliveries: DeliveryOrder;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeActor: () => void;
  private readonly pruner: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private stopFanout?: () => Promise<void>;

  constructor(private readonly hub: ChatHub = chatHub) {
    const limits = socketLimits();
    this.shared = {
      hub,
      limits,
      buckets: new TokenBuckets(limits.rateMessages, limits.rateWindowMs),
      penalties: new FloodPenalties(limits.floodCooldownMs),
    };
    this.deliveries = new DeliveryOrder(hub);
    this.pruner = setInterval(() => {
      this.shared.buckets.prune();
      this.shared.penalties.prune();
    }, limits.rateWindowMs);
    this.heartbeat = setInterval(() => this.beat(), limits.pingIntervalMs);
    this.pruner.unref();
    this.heartbeat.unref();
    this.wss.on("connection", (ws, req: IncomingMessage) => this.onConnection(ws, req));
    this.unsubscribe = sessionEvents.onRevoked(({ sessionIds, userId }) => {
      const ids = new Set(sessionIds);
      for (const c of this.clients) {
        if (c.actor && (ids.has(c.actor.session.id) || (userId && c.actor.user.id === userId))) {
          closeSocket(c.ws, CLOSE_UNAUTHORIZED, "session revoked");
        }
      }
    });
    this.unsubscribeActor = sessionEvents.onActorChanged((userId) => {
      for (const c of this.clients) if (c.actor?.user.id === userId) rereadSoon(c);
    });
  }

  /** Subscribe to the database's deliveries and revocations (before the server listens). */
  async start(handle: DbHandle) {
    this.stopFanout = await listenFanout(handle, {
      message: (d) => this.deliveries.deliver(d),
      notification: (n) => this.hub.notify(n),
    });
  }

  /**
   * server.ts hands every /ws/chat upgrade here. A browser always sends Origin: one from another
   * site is refused with 403 before the upgrade (a page elsewhere must not open a socket riding
   * on the user's cookie). No Origin at all is a non-browser client (an agent), which has to
   * authenticate with a token or cookie of its own anyway.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    if (!configuredOrigins().allows(req.headers.origin, headerGetter(req.headers as Record<string, unknown>))) {
      refuseUpgrade(socket, 403, "Forbidden", "This origin may not open the chat socket");
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
  }

  get size(): number {
    return this.clients.size;
  }

  private onConnection(ws: WebSocket, req: IncomingMessage) {
    const client = newClient(ws, clientIp(req.headers as Record<string, unknown>), this.shared.limits);
    this.clients.add(client);
    const timer = setTimeout(() => {
      if (!client.actor) closeSocket(ws, CLOSE_UNAUTHORIZED, "authentication timeout");
    }, this.shared.limits.authTimeoutMs);
    ws.on("close", () => {
      clearTimeout(timer);
      this.clients.delete(client);
      if (client.peer) this.hub.remove(client.peer);
    });
    ws.on("error", () => ws.terminate());

    const cookie = req.headers.cookie;
    // A page of another site may open this socket in the user's browser (cross-site WebSocket
    // hijacking): its cookie counts only under the same rule as cookie-carrying HTTP writes
    // (isCrossSite: the site's own origins, WS_ALLOWED_ORIGINS included). An auth frame always works.
    if (cookie && !isCrossSite(headerGetter(req.headers as Record<string, unknown>))) {
      // First in the frame queue, so frames sent right after opening wait for the cookie's verdict.
      client.queue = getDb()
        .then((db) => actorFromCookieHeader(db, cookie))
        .then((actor) => {
          if (!actor || client.actor || ws.readyState !== WebSocket.OPEN) return;
          if (this.shared.penalties.cooling(actor.user.id)) closeSocket(ws, CLOSE_POLICY, "too many frames; retry later", true);
          else ready(this.hub, client, actor);
        })
        .catch(() => {});
    }

    ws.on("message", (data, isBinary) => onFrame(this.shared, client, data as Buffer, isBinary));
    ws.on("ping", (data) => {
      if (admit(this.shared, client, data.byteLength)) ws.pong(data);
    });
    ws.on("pong", () => (client.alive = true));
  }

  /** Terminate connections that did not answer the last ping (dead peers, clients that stopped reading). */
  private beat() {
    for (const c of this.clients) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      if (c.ws.readyState === WebSocket.OPEN) c.ws.ping();
    }
  }

  /** Close every socket (graceful shutdown) and stop listening for revocations and deliveries. */
  close(code = 1001, reason = "server shutting down") {
    this.unsubscribe();
    this.unsubscribeActor();
    clearInterval(this.pruner);
    clearInterval(this.heartbeat);
    void this.stopFanout?.().catch(() => {});
    for (const c of this.clients) c.ws.close(code, reason);
    this.wss.close();
  }
}
