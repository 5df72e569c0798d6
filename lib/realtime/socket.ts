// The /ws/chat socket (contract 5). The first frame is { type: "auth", token } (a Bearer JWT), or
// the session cookie on the upgrade authenticates at once; either way the server answers
// { type: "ready", userId }. No auth within 10 s, or a bad token: close 4401. A session revoked
// later (on any instance) closes its sockets with 4401 too. After ready: `message` frames send
// chat messages (./messages.ts), `ping` answers `pong`. Deliveries arrive from the database's
// NOTIFY (./fanout.ts) and go out through the process's hub (./hub.ts).
import type { IncomingMessage } from "node:http";
import { WebSocket, WebSocketServer } from "ws";
import type { SignedInActor } from "@/lib/auth/actor";
import { clientIp } from "@/lib/auth/cookies";
import { actorFromCookieHeader } from "@/lib/auth/resolve";
import { headerGetter, isCrossSite } from "@/lib/auth/same-origin";
import { actorForSession } from "@/lib/auth/sessions";
import { verifyAccessToken } from "@/lib/auth/tokens";
import { getDb, type DbHandle } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { loadMessage } from "@/lib/services/chat/views";
import { sessionEvents } from "./events";
import { listenFanout, type ChatNotice } from "./fanout";
import { chatHub, type ChatHub, type Peer } from "./hub";
import { handleMessageFrame } from "./messages";
import { TokenBuckets } from "./rate";

export const MAX_FRAME_BYTES = 64 * 1024;
export const AUTH_TIMEOUT_MS = Number(process.env.WS_AUTH_TIMEOUT_MS ?? 10_000);
export const CLOSE_UNAUTHORIZED = 4401;
/** Flood limit per user and instance: this many messages at once, refilled over the window. */
export const RATE_MESSAGES = Number(process.env.WS_RATE_LIMIT_MESSAGES ?? 20);
export const RATE_WINDOW_MS = Number(process.env.WS_RATE_LIMIT_WINDOW_MS ?? 10_000);

type Client = { ws: WebSocket; actor: SignedInActor | null; peer: Peer | null; ip: string; queue: Promise<void> };

export class ChatSocketServer {
  // Frames over 64 KiB get an error frame and the socket stays open (contract 5) up to this size;
  // beyond it ws closes the socket (1009) rather than buffer arbitrary amounts per connection.
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;
  private readonly buckets = new TokenBuckets(RATE_MESSAGES, RATE_WINDOW_MS);
  private readonly pruner = setInterval(() => this.buckets.prune(), RATE_WINDOW_MS);
  private stopFanout?: () => Promise<void>;

  constructor(private readonly hub: ChatHub = chatHub) {
    this.pruner.unref();
    this.wss.on("connection", (ws, req: IncomingMessage) => this.onConnection(ws, req));
    this.unsubscribe = sessionEvents.onRevoked(({ sessionIds, userId }) => {
      const ids = new Set(sessionIds);
      for (const c of this.clients) {
        if (c.actor && (ids.has(c.actor.session.id) || (userId && c.actor.user.id === userId))) {
          c.ws.close(CLOSE_UNAUTHORIZED, "session revoked");
        }
      }
    });
  }

  /** Subscribe to the database's deliveries and revocations (before the server listens). */
  async start(handle: DbHandle) {
    this.stopFanout = await listenFanout(handle, { message: (n) => this.onNotice(n) });
  }

  get size(): number {
    return this.clients.size;
  }

  private onNotice(notice: ChatNotice) {
    if ("m" in notice) {
      this.hub.deliver(notice.m, notice.o);
      return;
    }
    if (!this.hub.has(notice.to) && !this.hub.has(notice.from)) return;
    // Too large for a NOTIFY payload: load it. Outside the callback, which PGlite runs in the
    // middle of the query that delivered the notification.
    setImmediate(() => {
      void getDb()
        .then((db) => loadMessage(db, notice.id))
        .then((m) => m && this.hub.deliver(m, notice.o))
        .catch((err: unknown) => console.error("chat fan-out: loading a message failed", err));
    });
  }

  private onConnection(ws: WebSocket, req: IncomingMessage) {
    const client: Client = { ws, actor: null, peer: null, ip: clientIp(req.headers as Record<string, unknown>), queue: Promise.resolve() };
    this.clients.add(client);
    const timer = setTimeout(() => {
      if (!client.actor) ws.close(CLOSE_UNAUTHORIZED, "authentication timeout");
    }, AUTH_TIMEOUT_MS);
    ws.on("close", () => {
      clearTimeout(timer);
      this.clients.delete(client);
      if (client.peer) this.hub.remove(client.peer);
    });
    ws.on("error", () => ws.terminate());

    const cookie = req.headers.cookie;
    // A page of another site may open this socket in the user's browser (cross-site WebSocket
    // hijacking): its cookie is not taken as authentication then; an auth frame still works.
    if (cookie && !isCrossSite(headerGetter(req.headers as Record<string, unknown>))) {
      // First in the frame queue, so frames sent right after opening wait for the cookie's verdict.
      client.queue = getDb()
        .then((db) => actorFromCookieHeader(db, cookie))
        .then((actor) => {
          if (actor && !client.actor && ws.readyState === WebSocket.OPEN) this.ready(client, actor);
        })
        .catch(() => {});
    }

    ws.on("message", (data, isBinary) => this.onFrame(client, data as Buffer, isBinary));
  }

  private ready(client: Client, actor: SignedInActor) {
    client.actor = actor;
    const ws = client.ws;
    client.peer = { id: newId(), userId: actor.user.id, send: (text) => ws.readyState === WebSocket.OPEN && ws.send(text) };
    this.hub.add(client.peer);
    send(ws, { type: "ready", userId: actor.user.id });
  }

  private onFrame(client: Client, data: Buffer, isBinary: boolean) {
    if (isBinary || data.byteLength > MAX_FRAME_BYTES) {
      return send(client.ws, { type: "error", code: isBinary ? "bad_frame" : "frame_too_large", message: `Frames are JSON text of at most ${MAX_FRAME_BYTES} bytes` });
    }
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(data.toString("utf8")) as Record<string, unknown>;
    } catch {
      return send(client.ws, { type: "error", code: "bad_frame", message: "Frames must be JSON objects" });
    }
    if (!frame || typeof frame !== "object" || Array.isArray(frame) || typeof frame.type !== "string") {
      return send(client.ws, { type: "error", code: "bad_frame", message: "Frames need a string `type`" });
    }
    if (frame.type === "ping" && client.actor) return send(client.ws, { type: "pong" });
    // One frame at a time per socket: messages are stored (and so ordered) as they were sent, and
    // a message right behind its auth frame finds the socket authenticated.
    client.queue = client.queue
      .then(() => this.handle(client, frame))
      .catch((err: unknown) => {
        console.error("chat socket: frame failed", err);
        send(client.ws, { type: "error", code: "internal_error", message: "Something went wrong on our side" });
      });
  }

  private async handle(client: Client, frame: Record<string, unknown>) {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    if (frame.type === "auth") {
      if (client.actor) return send(client.ws, { type: "ready", userId: client.actor.user.id });
      const actor = typeof frame.token === "string" ? await actorForToken(frame.token) : null;
      if (!actor) return client.ws.close(CLOSE_UNAUTHORIZED, "invalid token");
      if (client.ws.readyState === WebSocket.OPEN && !client.actor) this.ready(client, actor);
      return;
    }
    const actor = client.actor;
    if (!actor) return client.ws.close(CLOSE_UNAUTHORIZED, "authenticate first");
    if (frame.type === "message") {
      return handleMessageFrame(
        {
          actor,
          socketId: client.peer!.id,
          ip: client.ip,
          buckets: this.buckets,
          send: (f) => send(client.ws, f),
          unauthorized: () => client.ws.close(CLOSE_UNAUTHORIZED, "session ended"),
          refreshed: (a) => (client.actor = a),
        },
        frame,
      );
    }
    const ref = typeof frame.ref === "string" ? { ref: frame.ref.slice(0, 100) } : {};
    return send(client.ws, { type: "error", code: "unsupported", message: `Frame type "${String(frame.type)}" is not supported`, ...ref });
  }

  /** Close every socket (graceful shutdown) and stop listening for revocations and deliveries. */
  close(code = 1001, reason = "server shutting down") {
    this.unsubscribe();
    clearInterval(this.pruner);
    void this.stopFanout?.().catch(() => {});
    for (const c of this.clients) c.ws.close(code, reason);
    this.wss.close();
  }
}

async function actorForToken(token: string): Promise<SignedInActor | null> {
  const claims = await verifyAccessToken(token);
  if (!claims) return null;
  return actorForSession(await getDb(), claims.sid, claims.sub, "bearer");
}

function send(ws: WebSocket, frame: object) {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
