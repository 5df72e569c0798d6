// One connection's frames: each is charged to the connection's frame budget before it is parsed,
// checked for shape, counted against the account's flood limit as it arrives, and handled in the
// order sent (auth, then `message` frames through ./messages.ts).
import { WebSocket } from "ws";
import { ApiError } from "@/lib/errors";
import { jsonShapeProblem } from "@/lib/api/json-shape";
import { consumeAnonymousTier } from "@/lib/api/rate-limit";
import { actorForApiKey, looksLikeApiKey } from "@/lib/auth/api-keys";
import { actorForSession } from "@/lib/auth/sessions";
import { verifyAccessToken } from "@/lib/auth/tokens";
import { getDb } from "@/lib/db/client";
import type { ChatHub } from "./hub";
import { handleMessageFrame, rateLimitedFrame } from "./messages";
import type { TokenBuckets } from "./rate";
import { actorForMessage, ready, type Client } from "./socket-client";
import type { FloodPenalties, SocketLimits } from "./socket-limits";
import { CLOSE_POLICY, CLOSE_UNAUTHORIZED, closeSocket, MAX_FRAME_BYTES, send } from "./socket-wire";

/** What the connections of one server share. */
export type SocketShared = {
  hub: ChatHub;
  limits: SocketLimits;
  /** Messages per account (the flood limit). */
  buckets: TokenBuckets;
  penalties: FloodPenalties;
};

/** Charge a frame to the connection's budget: false means drop it (and maybe close the socket). */
export function admit(shared: SocketShared, client: Client, bytes: number): boolean {
  if (client.ws.readyState !== WebSocket.OPEN) return false;
  const v = client.budget.take(bytes);
  if (v.verdict === "ok") return true;
  if (v.verdict === "close") {
    closeSocket(client.ws, CLOSE_POLICY, "too many frames", true);
    // The account may not open another socket here until a full allowance would have refilled.
    if (client.actor) shared.penalties.punish(client.actor.user.id);
  } else if (v.first)
    send(client.ws, {
      type: "error",
      code: "rate_limited",
      message: "Too many frames; later frames are dropped until the allowance refills",
      retryAfterMs: v.retryAfterMs,
    });
  return false;
}

export function onFrame(shared: SocketShared, client: Client, data: Buffer, isBinary: boolean) {
  if (!admit(shared, client, data.byteLength)) return;
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
  const echo = clientIdEcho(frame.clientId);
  if (!echo) return send(client.ws, badClientId());
  if (frame.type === "ping" && client.actor) return send(client.ws, { type: "pong", ...echo });
  // The flood limit counts messages as they arrive, not when their turn comes: a slow database
  // must not turn a burst into a trickle that passes. (A message right behind its auth frame,
  // before the socket is ready, is counted in its turn.)
  let slotTaken = false;
  if (frame.type === "message" && client.actor) {
    const slot = shared.buckets.take(client.actor.user.id);
    if (!slot.ok) return send(client.ws, { ...rateLimitedFrame(frame, slot.retryAfterMs), ...echo });
    slotTaken = true;
  }
  // One frame at a time per socket: messages are stored (and so ordered) as they were sent, and
  // a message right behind its auth frame finds the socket authenticated.
  client.queue = client.queue
    .then(() => handle(shared, client, frame, echo, slotTaken))
    .catch((err: unknown) => {
      console.error("chat socket: frame failed", err);
      send(client.ws, {
        type: "error",
        code: "internal_error",
        message: "Something went wrong on our side",
        ...echo,
      });
    });
}

async function handle(shared: SocketShared, client: Client, frame: Record<string, unknown>, echo: Echo, slotTaken = false) {
  if (client.ws.readyState !== WebSocket.OPEN) return;
  if (frame.type === "auth") {
    if (client.actor) return send(client.ws, { type: "ready", userId: client.actor.user.id, ...echo });
    const actor = await authenticate(shared, client, frame);
    if (actor && client.ws.readyState === WebSocket.OPEN && !client.actor) ready(shared.hub, client, actor, echo);
    return;
  }
  if (client.rereading) await client.rereading;
  const current = client.actor;
  if (!current) return closeSocket(client.ws, CLOSE_UNAUTHORIZED, "authenticate first");
  if (frame.type === "message") {
    const actor = await actorForMessage(client, current, shared.limits.actorMaxAgeMs);
    if (!actor) return;
    const ws = client.ws;
    return handleMessageFrame(
      {
        actor,
        socketId: client.peer!.id,
        ip: client.ip,
        buckets: shared.buckets,
        send: (f) => send(ws, f),
        echo,
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
    ...echo,
  });
}

/**
 * The account of an auth frame: `token` holds a Bearer JWT or an API key (as the Authorization
 * header may), `apiKey` an API key (as X-API-Key). A key acts as its account exactly as over HTTP
 * (contract 9.5); anything sent and not valid closes the socket (4401) and is counted.
 */
async function authenticate(shared: SocketShared, client: Client, frame: Record<string, unknown>) {
  const secret = typeof frame.apiKey === "string" ? frame.apiKey : typeof frame.token === "string" ? frame.token : null;
  if (secret === null || (frame.apiKey !== undefined && typeof frame.apiKey !== "string")) return refuseCredentials(client);
  if (frame.apiKey !== undefined || looksLikeApiKey(secret)) {
    const actor = await actorForApiKey(await getDb(), secret.trim());
    if (!actor) return refuseCredentials(client);
    if (shared.penalties.cooling(actor.user.id)) return closeSocket(client.ws, CLOSE_POLICY, "too many frames; retry later", true);
    return actor;
  }
  const claims = await verifyAccessToken(secret);
  if (!claims) return refuseCredentials(client);
  // Checked before the session is read: a flooder's reconnects cost no database work.
  if (shared.penalties.cooling(claims.sub)) return closeSocket(client.ws, CLOSE_POLICY, "too many frames; retry later", true);
  return (await actorForSession(await getDb(), claims.sid, claims.sub, "bearer")) ?? refuseCredentials(client);
}

/** What a frame's answer repeats of it: its `clientId` (contract 9.5), so an agent can tie an answer to its frame. */
type Echo = { clientId?: string };
export const MAX_CLIENT_ID = 64;

/** The echo of a frame's `clientId`, or null when it is not a string of at most 64 characters. */
function clientIdEcho(clientId: unknown): Echo | null {
  if (clientId === undefined) return {};
  return typeof clientId === "string" && clientId.length <= MAX_CLIENT_ID ? { clientId } : null;
}

/** A bad `clientId` cannot be echoed, so the error names the field instead; the frame is not handled. */
function badClientId() {
  const message = `clientId must be a string of at most ${MAX_CLIENT_ID} characters`;
  return { type: "error", code: "validation_failed", message: `Frame not processed: ${message}`, errors: [{ path: "clientId", message }] };
}

/**
 * Invalid credentials count against the anonymous tier of the address, as on /api (contract 9.1):
 * guessing tokens over sockets is braked like guessing them over HTTP.
 */
async function refuseCredentials(client: Client): Promise<null> {
  const limited = await consumeAnonymousTier(await getDb(), client.ip).then(
    () => false,
    (err: unknown) => err instanceof ApiError && err.code === "rate_limited",
  );
  closeSocket(client.ws, limited ? CLOSE_POLICY : CLOSE_UNAUTHORIZED, limited ? "too many invalid credentials; retry later" : "invalid token");
  return null;
}
