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
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { jsonShapeProblem } from "@/lib/api/json-shape";
import type { SignedInActor } from "@/lib/auth/actor";
import { clientIp } from "@/lib/auth/cookies";
import { actorFromCookieHeader } from "@/lib/auth/resolve";
import { configuredOrigins, headerGetter, isCrossSite } from "@/lib/auth/same-origin";
import { actorForSession } from "@/lib/auth/sessions";
import { verifyAccessToken } from "@/lib/auth/tokens";
import { getDb, type DbHandle } from "@/lib/db/client";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids";
import { ApiError } from "@/lib/api/errors";
import { consumeAnonymousTier } from "@/lib/api/rate-limit";
import { auditOutcome, permissionRefusal } from "@/lib/gate/gate";
import { loadMessage } from "@/lib/services/chat/views";
import { sessionEvents } from "./events";
import { listenFanout, type Delivery } from "./fanout";
import { chatHub, type ChatHub, type Peer } from "./hub";
import { handleMessageFrame, rateLimitedFrame } from "./messages";
import { FrameBudget, TokenBuckets } from "./rate";

export const MAX_FRAME_BYTES = 64 * 1024;
export const CLOSE_UNAUTHORIZED = 4401;
/** A frame costs one token per started 16 KiB (a 5,000-character message fits in one). */
const FRAME_COST_UNIT = 16 * 1024;
/** After the server closes a socket, the client has this long to finish the close handshake. */
const CLOSE_GRACE_MS = 2000;
export const CLOSE_POLICY = 1008;
/** Largest frame read at all; larger ones close the socket (1009) from their header alone. */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/** The socket's limits from the environment (lib/env.ts; tests shorten some), read when the server is built. */
export function socketLimits() {
  const e = env();
  return {
    /** No auth within this time: close 4401. */
    authTimeoutMs: e.WS_AUTH_TIMEOUT_MS,
    /** Flood limit per user and instance: this many messages at once, refilled over the window. */
    rateMessages: e.WS_RATE_LIMIT_MESSAGES,
    rateWindowMs: e.WS_RATE_LIMIT_WINDOW_MS,
    /** Frames per connection (any type, pings included): this many at once, refilled per second. */
    frameBurst: e.WS_FRAME_BURST,
    framesPerSecond: e.WS_FRAMES_PER_SECOND,
    /** After a flood, the account's new sockets on this instance are refused for as long as a full allowance takes to refill. */
    floodCooldownMs: (e.WS_FRAME_BURST / e.WS_FRAMES_PER_SECOND) * 1000,
    /** Ping every connection this often; one that has not answered the previous ping is terminated. */
    pingIntervalMs: e.WS_PING_INTERVAL_MS,
    /**
     * A socket's actor is re-read before its next message when the account's rights changed (an
     * event), and at the latest this long after the last read (an expired session, a notice lost
     * while the LISTEN connection was away).
     */
    actorMaxAgeMs: e.WS_ACTOR_MAX_AGE_MS,
  };
}

type Client = {
  ws: WebSocket;
  actor: SignedInActor | null;
  peer: Peer | null;
  ip: string;
  queue: Promise<void>;
  budget: FrameBudget;
  alive: boolean;
  /** When the actor was last read from the database, and whether it must be read again. */
  verifiedAt: number;
  stale: boolean;
  /**
   * Deliveries held while the actor is read again after a change of its rights: sent if it still
   * holds `chat.read`, dropped if not (contract 9.1: a change takes effect on open sockets at once).
   */
  held: string[] | null;
  /** That read, while it runs: a message frame waits for it, so it meets the new rights. */
  rereading: Promise<void> | null;
};

export class ChatSocketServer {
  private readonly limits = socketLimits();
  // Frames over 64 KiB get an error frame and the socket stays open (contract 5) up to this size;
  // beyond it ws closes the socket (1009) rather than buffer arbitrary amounts per connection.
  // autoPong off: the client's pings are answered in onConnection, within the frame budget.
  readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD_BYTES,
    autoPong: false,
  });
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;
  private readonly unsubscribeActor: () => void;
  /** Deliveries still waiting for a large message to load: later ones queue behind (order). */
  private deliveries: Promise<void> | null = null;
  private readonly buckets = new TokenBuckets(this.limits.rateMessages, this.limits.rateWindowMs);
  private readonly pruner = setInterval(() => {
    this.buckets.prune();
    for (const userId of this.penalties.keys()) this.cooling(userId);
  }, this.limits.rateWindowMs);
  private readonly heartbeat = setInterval(() => this.beat(), this.limits.pingIntervalMs);
  /** Accounts whose socket was closed for flooding: user id => refused until. */
  private readonly penalties = new Map<string, number>();
  private stopFanout?: () => Promise<void>;

  constructor(private readonly hub: ChatHub = chatHub) {
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
      for (const c of this.clients) if (c.actor?.user.id === userId) c.rereading = this.reread(c).finally(() => (c.rereading = null));
    });
  }

  /** Subscribe to the database's deliveries and revocations (before the server listens). */
  async start(handle: DbHandle) {
    this.stopFanout = await listenFanout(handle, {
      message: (d) => this.onDelivery(d),
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

  private onDelivery(d: Delivery) {
    if ("m" in d) {
      if (!this.deliveries) this.hub.deliver(d.m, d.o);
      else
        this.after(() => {
          this.hub.deliver(d.m, d.o);
        });
      return;
    }
    if (!this.hub.has(d.to) && !this.hub.has(d.from)) return;
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
      if (m) this.hub.deliver(m, d.o);
    });
  }

  private after(step: () => void | Promise<void>) {
    const tail = (this.deliveries ?? Promise.resolve()).then(step).catch(() => {});
    this.deliveries = tail;
    void tail.then(() => {
      if (this.deliveries === tail) this.deliveries = null;
    });
  }

  private onConnection(ws: WebSocket, req: IncomingMessage) {
    const client: Client = {
      ws,
      actor: null,
      peer: null,
      ip: clientIp(req.headers as Record<string, unknown>),
      queue: Promise.resolve(),
      budget: new FrameBudget(this.limits.frameBurst, this.limits.framesPerSecond, FRAME_COST_UNIT),
      alive: true,
      verifiedAt: 0,
      stale: false,
      held: null,
      rereading: null,
    };
    this.clients.add(client);
    const timer = setTimeout(() => {
      if (!client.actor) closeSocket(ws, CLOSE_UNAUTHORIZED, "authentication timeout");
    }, this.limits.authTimeoutMs);
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
          if (this.cooling(actor.user.id)) closeSocket(ws, CLOSE_POLICY, "too many frames; retry later", true);
          else this.ready(client, actor);
        })
        .catch(() => {});
    }

    ws.on("message", (data, isBinary) => this.onFrame(client, data as Buffer, isBinary));
    ws.on("ping", (data) => {
      if (this.admit(client, data.byteLength)) ws.pong(data);
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

  private cooling(userId: string): boolean {
    const until = this.penalties.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.penalties.delete(userId);
    return false;
  }

  /** Charge a frame to the connection's budget: false means drop it (and maybe close the socket). */
  private admit(client: Client, bytes: number): boolean {
    if (client.ws.readyState !== WebSocket.OPEN) return false;
    const v = client.budget.take(bytes);
    if (v.verdict === "ok") return true;
    if (v.verdict === "close") {
      closeSocket(client.ws, CLOSE_POLICY, "too many frames", true);
      // The account may not open another socket here until a full allowance would have refilled.
      if (client.actor) this.penalties.set(client.actor.user.id, Date.now() + this.limits.floodCooldownMs);
    } else if (v.first)
      send(client.ws, {
        type: "error",
        code: "rate_limited",
        message: "Too many frames; later frames are dropped until the allowance refills",
        retryAfterMs: v.retryAfterMs,
      });
    return false;
  }

  private ready(client: Client, actor: SignedInActor) {
    client.actor = actor;
    client.verifiedAt = Date.now();
    const ws = client.ws;
    client.peer = {
      id: newId(),
      userId: actor.user.id,
      send: (text) => {
        if (ws.readyState !== WebSocket.OPEN || !client.actor) return;
        if (client.held) client.held.push(text);
        else if (!permissionRefusal(client.actor, "chat.read")) ws.send(text);
      },
    };
    this.hub.add(client.peer);
    send(ws, { type: "ready", userId: actor.user.id });
    // Opening the socket is reading chat (contract 9.1): on the record, and said on the socket when withheld.
    const refusal = permissionRefusal(actor, "chat.read");
    if (refusal) send(ws, withheld(refusal.message));
    void getDb()
      .then((db) =>
        auditOutcome(
          db,
          actor,
          { permission: "chat.read", ip: client.ip, details: () => "chat socket opened" },
          refusal ? { error: refusal } : { result: null },
        ),
      )
      .catch((e: unknown) => console.error("chat socket: audit write failed", e));
  }

  /**
   * Read the socket's actor again now (its rights changed). Deliveries wait meanwhile and then go
   * out or are dropped by the new rights; a socket whose session ended is closed.
   */
  private async reread(client: Client) {
    const before = client.actor;
    if (!before) return;
    client.held ??= [];
    client.stale = false;
    try {
      const fresh = await actorForSession(await getDb(), before.session.id, before.user.id, before.session.via);
      if (!fresh) return closeSocket(client.ws, CLOSE_UNAUTHORIZED, "session ended");
      client.actor = fresh;
      client.verifiedAt = Date.now();
      const refusal = permissionRefusal(fresh, "chat.read");
      if (refusal && !permissionRefusal(before, "chat.read")) send(client.ws, withheld(refusal.message));
    } catch (err) {
      // Not known to be allowed any more: read again before the next message, deliver nothing meanwhile.
      console.error("chat socket: re-reading the account failed", err);
      client.stale = true;
      client.held = null;
      return;
    }
    const held = client.held;
    client.held = null;
    if (permissionRefusal(client.actor, "chat.read")) return;
    for (const text of held ?? []) if (client.ws.readyState === WebSocket.OPEN) client.ws.send(text);
  }

  private onFrame(client: Client, data: Buffer, isBinary: boolean) {
    if (!this.admit(client, data.byteLength)) return;
    if (isBinary || data.byteLength > MAX_FRAME_BYTES) {
      return send(client.ws, {
        type: "error",
        code: isBinary ? "bad_frame" : "frame_too_large",
        message: `Frames are JSON text of at most ${MAX_FRAME_BYTES} bytes`,
      });
    }
    const text = data.toString("utf8");
    const shape = jsonShapeProblem(text);
    if (shape) return send(client.ws, { type: "error", code: "bad_frame", message: `Frame refused unparsed: ${shape}` });
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return send(client.ws, {
        type: "error",
        code: "bad_frame",
        message: "Frames must be JSON objects",
      });
    }
    if (!frame || typeof frame !== "object" || Array.isArray(frame) || typeof frame.type !== "string") {
      return send(client.ws, {
        type: "error",
        code: "bad_frame",
        message: "Frames need a string `type`",
      });
    }
    if (frame.type === "ping" && client.actor) return send(client.ws, { type: "pong" });
    // The flood limit counts messages as they arrive, not when their turn comes: a slow database
    // must not turn a burst into a trickle that passes. (A message right behind its auth frame,
    // before the socket is ready, is counted in its turn.)
    let slotTaken = false;
    if (frame.type === "message" && client.actor) {
      const slot = this.buckets.take(client.actor.user.id);
      if (!slot.ok) return send(client.ws, rateLimitedFrame(frame, slot.retryAfterMs));
      slotTaken = true;
    }
    // One frame at a time per socket: messages are stored (and so ordered) as they were sent, and
    // a message right behind its auth frame finds the socket authenticated.
    client.queue = client.queue
      .then(() => this.handle(client, frame, slotTaken))
      .catch((err: unknown) => {
        console.error("chat socket: frame failed", err);
        send(client.ws, {
          type: "error",
          code: "internal_error",
          message: "Something went wrong on our side",
        });
      });
  }

  private async handle(client: Client, frame: Record<string, unknown>, slotTaken = false) {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    if (frame.type === "auth") {
      if (client.actor) return send(client.ws, { type: "ready", userId: client.actor.user.id });
      const claims = typeof frame.token === "string" ? await verifyAccessToken(frame.token) : null;
      if (!claims) return this.refuseCredentials(client);
      // Checked before the session is read: a flooder's reconnects cost no database work.
      if (this.cooling(claims.sub)) return closeSocket(client.ws, CLOSE_POLICY, "too many frames; retry later", true);
      const actor = await actorForSession(await getDb(), claims.sid, claims.sub, "bearer");
      if (!actor) return this.refuseCredentials(client);
      if (client.ws.readyState === WebSocket.OPEN && !client.actor) this.ready(client, actor);
      return;
    }
    if (client.rereading) await client.rereading;
    let actor = client.actor;
    if (!actor) return closeSocket(client.ws, CLOSE_UNAUTHORIZED, "authenticate first");
    if (frame.type === "message") {
      if (client.stale || Date.now() - client.verifiedAt > this.limits.actorMaxAgeMs) {
        // Cleared first: a change signalled while this read runs asks for another read.
        client.stale = false;
        const fresh = await actorForSession(await getDb(), actor.session.id, actor.user.id, actor.session.via);
        if (!fresh) return closeSocket(client.ws, CLOSE_UNAUTHORIZED, "session ended");
        client.actor = actor = fresh;
        client.verifiedAt = Date.now();
      }
      const ws = client.ws;
      return handleMessageFrame(
        {
          actor,
          socketId: client.peer!.id,
          ip: client.ip,
          buckets: this.buckets,
          send: (f) => send(ws, f),
          live: () => ws.readyState === WebSocket.OPEN,
          slotTaken,
        },
        frame,
      );
    }
    const ref = typeof frame.ref === "string" ? { ref: frame.ref.slice(0, 100) } : {};
    return send(client.ws, {
      type: "error",
      code: "unsupported",
      message: `Frame type "${String(frame.type)}" is not supported`,
      ...ref,
    });
  }

  /**
   * Invalid credentials count against the anonymous tier of the address, as on /api (contract 9.1):
   * guessing tokens over sockets is braked like guessing them over HTTP.
   */
  private async refuseCredentials(client: Client) {
    const limited = await consumeAnonymousTier(await getDb(), client.ip).then(
      () => false,
      (err: unknown) => err instanceof ApiError && err.code === "rate_limited",
    );
    closeSocket(client.ws, limited ? CLOSE_POLICY : CLOSE_UNAUTHORIZED, limited ? "too many invalid credentials; retry later" : "invalid token");
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

/**
 * Close with a code, and cut the connection if the client does not complete the close in time.
 * `stopReading`: nothing more is read from it (a flooder's backlog is never parsed).
 */
function closeSocket(ws: WebSocket, code: number, reason: string, stopReading = false) {
  if (ws.readyState === WebSocket.CLOSED) return;
  ws.close(code, reason);
  if (stopReading) ws.pause();
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}

function refuseUpgrade(socket: Duplex, status: number, statusText: string, body: string) {
  socket.on("error", () => {});
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  // Whatever the client still sends is not read.
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/** Said on the socket when its AI account may not read chat: message frames are withheld until it may. */
function withheld(message: string) {
  return { type: "error", code: "permission_denied", message: `${message}; message frames are not delivered until the guardian allows it` };
}

function send(ws: WebSocket, frame: object) {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
