// One connection's state and its account: becoming ready, and reading the account again when its
// rights change (contract 9.1: a change takes effect on open sockets at once), with deliveries held
// meanwhile and then sent or dropped by the new rights.
import { WebSocket } from "ws";
import type { SignedInActor } from "@/lib/auth/actor";
import { actorForApiKeyId } from "@/lib/auth/api-keys";
import { actorForSession } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { auditOutcome, permissionRefusal } from "@/lib/gate/gate";
import { newId } from "@/lib/ids";
import type { ChatHub, Peer } from "./hub";
import { FrameBudget } from "./rate";
import { FRAME_COST_UNIT, type SocketLimits } from "./socket-limits";
import { CLOSE_UNAUTHORIZED, closeSocket, send, withheld } from "./socket-wire";

export type Client = {
  ws: WebSocket;
  actor: SignedInActor | null;
  peer: Peer | null;
  ip: string;
  queue: Promise<void>;
  budget: FrameBudget;
  alive: boolean;
  /**
   * When the actor was last read from the database, and whether it must be read again (a re-read
   * failed: nothing is delivered until one succeeds).
   */
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

export function newClient(ws: WebSocket, ip: string, limits: SocketLimits): Client {
  return {
    ws,
    actor: null,
    peer: null,
    ip,
    queue: Promise.resolve(),
    budget: new FrameBudget(limits.frameBurst, limits.framesPerSecond, FRAME_COST_UNIT),
    alive: true,
    verifiedAt: 0,
    stale: false,
    held: null,
    rereading: null,
  };
}

/** `echo`: what the auth frame asked to have repeated (its `clientId`). */
export function ready(hub: ChatHub, client: Client, actor: SignedInActor, echo: object = {}) {
  client.actor = actor;
  client.verifiedAt = Date.now();
  const ws = client.ws;
  client.peer = {
    id: newId(),
    userId: actor.user.id,
    send: (text) => {
      if (ws.readyState !== WebSocket.OPEN || !client.actor || client.stale) return;
      if (client.held) client.held.push(text);
      else if (!permissionRefusal(client.actor, "chat.read")) ws.send(text);
    },
  };
  hub.add(client.peer);
  send(ws, { type: "ready", userId: actor.user.id, ...echo });
  // Opening the socket is reading chat (contract 9.1): on the record, and said on the socket when withheld.
  const refusal = permissionRefusal(actor, "chat.read");
  if (refusal) send(ws, withheld(refusal.message));
  void getDb()
    .then((db) =>
      auditOutcome(db, actor, { permission: "chat.read", ip: client.ip, details: () => "chat socket opened" }, refusal ? { error: refusal } : { result: null }),
    )
    .catch((e: unknown) => console.error("chat socket: audit write failed", e));
}

/** Its rights changed: read the actor again now, and let a message frame wait for that read. */
export function rereadSoon(client: Client) {
  client.rereading = reread(client).finally(() => (client.rereading = null));
}

/**
 * Read the socket's actor again now (its rights changed). Deliveries wait meanwhile and then go
 * out or are dropped by the new rights; a socket whose session ended is closed.
 */
async function reread(client: Client) {
  const before = client.actor;
  if (!before) return;
  client.held ??= [];
  client.stale = false;
  try {
    const fresh = await refreshActor(client, before);
    if (!fresh) return;
    const refusal = permissionRefusal(fresh, "chat.read");
    if (refusal && !permissionRefusal(before, "chat.read")) send(client.ws, withheld(refusal.message));
  } catch (err) {
    // Not known to be allowed any more: deliver nothing (stale) until a read succeeds; try again shortly.
    console.error("chat socket: re-reading the account failed", err);
    client.stale = true;
    client.held = null;
    setTimeout(() => client.ws.readyState === WebSocket.OPEN && rereadSoon(client), REREAD_RETRY_MS).unref();
    return;
  }
  const held = client.held;
  client.held = null;
  if (!client.actor || permissionRefusal(client.actor, "chat.read")) return;
  for (const text of held ?? []) if (client.ws.readyState === WebSocket.OPEN) client.ws.send(text);
}

/**
 * The actor a message frame acts as: read again first when a change was signalled or the last
 * read is older than `maxAgeMs`. Null: the session ended and the socket is closing.
 */
export async function actorForMessage(client: Client, actor: SignedInActor, maxAgeMs: number): Promise<SignedInActor | null> {
  if (!client.stale && Date.now() - client.verifiedAt <= maxAgeMs) return actor;
  const fresh = await refreshActor(client, actor);
  client.stale = false;
  return fresh;
}

const REREAD_RETRY_MS = 1000;

/** Read the socket's account again; null when its session ended (the socket is then closing). */
async function refreshActor(client: Client, actor: SignedInActor): Promise<SignedInActor | null> {
  const db = await getDb();
  // A socket opened with an API key lives as long as the key (its session id is the key's id).
  const fresh =
    actor.session.via === "api_key"
      ? await actorForApiKeyId(db, actor.session.id, actor.user.id)
      : await actorForSession(db, actor.session.id, actor.user.id, actor.session.via);
  if (!fresh) {
    closeSocket(client.ws, CLOSE_UNAUTHORIZED, "session ended");
    return null;
  }
  client.actor = fresh;
  client.verifiedAt = Date.now();
  return fresh;
}
