// The /ws/chat socket (contract 5). This issue: the auth handshake. The first frame is
// { type: "auth", token } (a Bearer JWT), or the session cookie on the upgrade authenticates at
// once; either way the server answers { type: "ready", userId }. No auth within 10 s, or a bad
// token: close 4401. A session revoked later closes its sockets with 4401 too.
import type { IncomingMessage } from "node:http";
import { WebSocket, WebSocketServer } from "ws";
import type { SignedInActor } from "@/lib/auth/actor";
import { actorFromCookieHeader } from "@/lib/auth/resolve";
import { actorForSession } from "@/lib/auth/sessions";
import { verifyAccessToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import { sessionEvents } from "./events";

export const MAX_FRAME_BYTES = 64 * 1024;
export const AUTH_TIMEOUT_MS = Number(process.env.WS_AUTH_TIMEOUT_MS ?? 10_000);
export const CLOSE_UNAUTHORIZED = 4401;

type Client = { ws: WebSocket; actor: SignedInActor | null };

export class ChatSocketServer {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;

  constructor() {
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

  get size(): number {
    return this.clients.size;
  }

  private onConnection(ws: WebSocket, req: IncomingMessage) {
    const client: Client = { ws, actor: null };
    this.clients.add(client);
    const timer = setTimeout(() => {
      if (!client.actor) ws.close(CLOSE_UNAUTHORIZED, "authentication timeout");
    }, AUTH_TIMEOUT_MS);
    ws.on("close", () => {
      clearTimeout(timer);
      this.clients.delete(client);
    });
    ws.on("error", () => ws.terminate());

    const cookie = req.headers.cookie;
    if (cookie) {
      void getDb()
        .then((db) => actorFromCookieHeader(db, cookie))
        .then((actor) => {
          if (actor && !client.actor && ws.readyState === WebSocket.OPEN) this.ready(client, actor);
        })
        .catch(() => {});
    }

    ws.on("message", (data, isBinary) => {
      void this.onFrame(client, data as Buffer, isBinary);
    });
  }

  private ready(client: Client, actor: SignedInActor) {
    client.actor = actor;
    send(client.ws, { type: "ready", userId: actor.user.id });
  }

  private async onFrame(client: Client, data: Buffer, isBinary: boolean) {
    if (isBinary || data.byteLength > MAX_FRAME_BYTES) {
      return send(client.ws, { type: "error", code: isBinary ? "bad_frame" : "frame_too_large", message: `Frames are JSON text of at most ${MAX_FRAME_BYTES} bytes` });
    }
    let frame: { type?: unknown; token?: unknown };
    try {
      frame = JSON.parse(data.toString("utf8")) as typeof frame;
    } catch {
      return send(client.ws, { type: "error", code: "bad_frame", message: "Frames must be JSON objects" });
    }
    if (!frame || typeof frame !== "object" || typeof frame.type !== "string") {
      return send(client.ws, { type: "error", code: "bad_frame", message: "Frames need a string `type`" });
    }
    if (frame.type === "auth") {
      if (client.actor) return send(client.ws, { type: "ready", userId: client.actor.user.id });
      const actor = typeof frame.token === "string" ? await actorForToken(frame.token) : null;
      if (!actor) return client.ws.close(CLOSE_UNAUTHORIZED, "invalid token");
      if (client.ws.readyState === WebSocket.OPEN) this.ready(client, actor);
      return;
    }
    if (!client.actor) return client.ws.close(CLOSE_UNAUTHORIZED, "authenticate first");
    return send(client.ws, { type: "error", code: "unsupported", message: `Frame type "${frame.type}" is not supported` });
  }

  /** Close every socket (graceful shutdown) and stop listening for revocations. */
  close(code = 1001, reason = "server shutting down") {
    this.unsubscribe();
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
