// The one route wrapper every API handler goes through (contract 1): auth, rate tier, AI
// permission and audit, zod validation, Idempotency-Key, problem+json errors.
import { z } from "zod";
import { ANONYMOUS, isAdmin, type Actor, type AiActor } from "@/lib/auth/actor";
import { clientIp } from "@/lib/auth/cookies";
import { resolveActor } from "@/lib/auth/resolve";
import { headerGetter, isCrossSite } from "@/lib/auth/same-origin";
import { getDb, type Db } from "@/lib/db/client";
import { countingQueries, QUERY_COUNT_HEADER, withQueryCount } from "@/lib/db/query-count";
import { newId } from "@/lib/ids";
import { auditFailure, auditRecord, permissionRefusal, type Act } from "@/lib/gate/gate";
import type { Ctx } from "@/lib/gate/context";
import { forgetDatabaseHealth } from "@/lib/services/system/health";
import { ApiError } from "@/lib/errors";
import { problemResponse } from "./errors";
import { parseInput, parseStructuredInput, type Input, type StructuredInput } from "./body";
import { claimKey, completeKey, releaseKey, requestHash, streamedBody, type StreamedBody } from "./idempotency";
import { copyResponse, textResponse } from "./text-response";
import { auditAction, type Operation } from "./operation";
import { consumeAnonymousTier, consumeRateLimit, rateHeaders, rateKey, type RateState } from "./rate-limit";

export { JSON_BODY_LIMIT, readBody } from "./body";

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
export type HandlerArgs<O extends Operation> = {
  req: Request;
  ctx: Ctx;
  /** The parsed JSON body; multipart bodies are read by the handler from `req`. */
  body: O["bodyType"] extends "multipart" | "form" ? undefined : Out<O["body"]>;
  query: Out<O["query"]>;
  params: Out<O["params"]>;
};
export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, context: RouteContext) => Promise<Response>;

/** A JSON answer with a status (handlers may also return a plain value: 2xx of the operation). */
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/** A JSON answer already serialized (a string or its UTF-8 bytes). */
export function jsonText(text: string | Uint8Array, status = 200, headers?: HeadersInit): Response {
  return textResponse(text, { status, headers }, "application/json; charset=utf-8");
}

/** A list answer from the list cache, saying how it was served (`X-List-Cache`). */
export function listAnswer(answer: { body: Uint8Array; cache: string }): Response {
  return jsonText(answer.body, 200, { "X-List-Cache": answer.cache });
}

type Fn<O extends Operation> = (args: HandlerArgs<O>) => Promise<unknown>;

/** A route handler that knows its operation and its function (the dispatcher and MCP find it by that). */
export type OperationHandler = RouteHandler & { readonly op: Operation; readonly fn: Fn<Operation> };

export function route<const O extends Operation>(op: O, handler: (args: HandlerArgs<O>) => Promise<unknown>): OperationHandler {
  const serve = wrap(op, handler);
  const counted: RouteHandler = async (req, context) => {
    if (!countingQueries()) return serve(req, context);
    const { value, queries } = await withQueryCount(() => serve(req, context));
    return withHeader(value, QUERY_COUNT_HEADER, String(queries));
  };
  return Object.assign(counted, { op, fn: handler as Fn<Operation> });
}

/**
 * One operation called by another channel whose caller is already known and counted (an MCP tool
 * call inside POST /mcp): the same steps from access and permission on, with structured input
 * instead of a request to parse, and the channel's own request (never one built to look like REST).
 */
export async function invoke(h: OperationHandler, via: { req: Request; ctx: Ctx }, input: StructuredInput & { idempotencyKey?: string }): Promise<Response> {
  const { op } = h;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input.params[name] ?? "")));
  const call: Call = { req: via.req, requestId: via.ctx.requestId, ip: via.ctx.ip, ctx: { ...via.ctx }, audited: false, method: op.method, path };
  try {
    checkAccessAndPermission(op, call.ctx.actor);
    const parsed = parseStructuredInput(op, input);
    const idem = await claimIdempotency(op, call, input.idempotencyKey ?? null, parsed.rawBody);
    if (idem?.replay) return finishAnswer(idem.replay, call);
    return finishAnswer(await runHandler(op, h.fn, call, parsed, idem), call);
  } catch (err) {
    return failAnswer(op, call, err);
  }
}

/**
 * One call through the gate, step by step in this order: the database, the caller (anonymous tier
 * for invalid credentials, CSRF), the rate tier, access and permission, the input, the
 * Idempotency-Key, then the handler with its audit row; any refusal is answered as problem+json
 * and, for an AI account, written to the audit log.
 */
function wrap<const O extends Operation>(op: O, handler: (args: HandlerArgs<O>) => Promise<unknown>): RouteHandler {
  return async (req, context) => {
    const call = startCall(req);
    try {
      call.ctx.db = await openDatabase();
      const counted = op.rateLimited !== false;
      await resolveCaller(call, counted);
      if (counted) await applyRateTier(call);
      checkAccessAndPermission(op, call.ctx.actor);
      const input = await parseInput(op, req, await context?.params);
      const idem = await claimIdempotency(op, call, req.headers.get("idempotency-key"), input.rawBody);
      if (idem?.replay) return finishAnswer(idem.replay, call);
      return finishAnswer(await runHandler(op, handler, call, input, idem), call);
    } catch (err) {
      return failAnswer(op, call, err);
    }
  };
}

/**
 * One call as it passes the steps; `rate` and `audited` are also read when it fails. `method` and
 * `path` are the operation's as called (the audit row's and the Idempotency-Key's).
 */
type Call = { req: Request; requestId: string; ip: string; ctx: Ctx; rate?: RateState; audited: boolean; method: string; path: string };

function startCall(req: Request): Call {
  const requestId = newId();
  const ip = clientIp(req.headers);
  const ctx: Ctx = { db: undefined as unknown as Db, actor: ANONYMOUS, ip, requestId, userAgent: req.headers.get("user-agent") ?? "", channel: "rest" };
  return { req, requestId, ip, ctx, audited: false, method: req.method, path: new URL(req.url).pathname };
}

async function resolveCaller(call: Call, counted: boolean): Promise<void> {
  const { ctx, req, ip } = call;
  // Invalid credentials are counted as anonymous by address before their 401 (contract 9.1).
  ctx.actor = await resolveActor(ctx.db, req, counted ? async () => void (call.rate = await consumeAnonymousTier(ctx.db, ip)) : undefined);
  refuseCrossSite(req, ctx.actor);
}

async function applyRateTier(call: Call): Promise<void> {
  const rk = rateKey(call.ctx.actor, call.ip);
  if (rk) call.rate = await consumeRateLimit(call.ctx.db, rk.key, rk.limit);
}

function checkAccessAndPermission(op: Operation, actor: Actor): void {
  checkAccess(op, actor);
  const refusal = permissionRefusal(actor, op.permission);
  if (refusal) throw refusal;
}

type Idempotency = { owner: string; key: string; streamed: StreamedBody | undefined; replay: Response | null };

/** A POST with an Idempotency-Key claims it first: a retry of a finished call gets its answer again. */
async function claimIdempotency(op: Operation, call: Call, key: string | null, rawBody: string | undefined): Promise<Idempotency | null> {
  const { req, ctx, method, path } = call;
  if (!(method === "POST" && (op.idempotent ?? true) && key !== null)) return null;
  const owner = ctx.actor.type === "human" || ctx.actor.type === "ai" ? `u:${ctx.actor.user.id}` : `ip:${call.ip}`;
  // A multipart body is hashed as the handler streams it (lib/api/idempotency.ts).
  const streamed = op.bodyType === "multipart" ? streamedBody(req, method, path) : undefined;
  const claim = await claimKey(ctx.db, owner, key, method, path, streamed ?? requestHash(method, path, rawBody ?? ""));
  return { owner, key, streamed, replay: claim.kind === "replay" ? claim.response : null };
}

/**
 * The handler, with an AI account's audit row and the answer kept for the Idempotency-Key. A
 * failure settles the key: an ApiError is kept as the answer, anything else frees the key.
 */
async function runHandler<const O extends Operation>(
  op: O,
  handler: (args: HandlerArgs<O>) => Promise<unknown>,
  call: Call,
  input: Input,
  idem: Idempotency | null,
): Promise<Response> {
  const { ctx, req, ip } = call;
  try {
    const args = { req: idem?.streamed?.req ?? req, ctx, body: input.body, query: input.query, params: input.params } as HandlerArgs<O>;
    let response: Response;
    let completed = false;
    if ((ctx.actor.type === "ai" || idem) && op.transactional !== false) {
      // One transaction: the handler's writes, an AI account's audit row, and the answer kept
      // for the Idempotency-Key. A crash mid-way leaves none of them, so a retry acts afresh.
      const ai = ctx.actor.type === "ai" ? ctx.actor : null;
      response = await ctx.db.transaction(async (tx) => {
        const res = toResponse(op, await handler({ ...args, ctx: { ...ctx, db: tx } }));
        // A handler may answer an error itself (e.g. 405): that is not a success either.
        if (ai) await auditOutcome(tx, op, ai, ip, res, call);
        // Taken over by a retry meanwhile (this instance was thought dead): undo, the retry acts.
        if (idem && !(await completeKey(tx, idem.owner, idem.key, res, idem.streamed?.digest()))) {
          throw new ApiError("idempotency_in_flight", "Another request with this Idempotency-Key took over; retry shortly", {
            headers: { "Retry-After": "1" },
          });
        }
        return res;
      });
      call.audited = ai !== null;
      completed = idem !== null;
    } else {
      response = toResponse(op, await handler(args));
      if (ctx.actor.type === "ai") {
        await auditOutcome(ctx.db, op, ctx.actor, ip, response, call);
        call.audited = true;
      }
    }
    if (idem && !completed) await completeKey(ctx.db, idem.owner, idem.key, response, idem.streamed?.digest());
    return response;
  } catch (err) {
    if (idem) {
      if (err instanceof ApiError) await completeKey(ctx.db, idem.owner, idem.key, problemResponse(err, call.requestId), idem.streamed?.digest());
      else await releaseKey(ctx.db, idem.owner, idem.key).catch(() => {});
    }
    throw err;
  }
}

/** The request id and the rate tier's headers on every answer. */
function finishAnswer(res: Response, call: Call): Response {
  const out = withHeader(res, "X-Request-Id", call.requestId);
  if (call.rate) for (const [k, v] of Object.entries(rateHeaders(call.rate))) if (!out.headers.has(k)) out.headers.set(k, v);
  return out;
}

/** A refusal or failure as problem+json; an AI account's is on the record unless already written. */
async function failAnswer(op: Operation, call: Call, err: unknown): Promise<Response> {
  const { ctx, requestId } = call;
  const apiErr = toApiError(err, requestId);
  if (ctx.actor.type === "ai" && !call.audited) {
    await auditFailure(ctx.db, ctx.actor, gateAct(op), call.ip, apiErr).catch((e: unknown) => console.error(`[${requestId}] audit write failed`, e));
  }
  return finishAnswer(problemResponse(apiErr, requestId), call);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF: a state-changing request a browser marks as cross-site is refused unless it brought its own
 * credentials (Bearer/API key). Cookie sessions and anonymous calls (sign-in, registration) qualify.
 */
function refuseCrossSite(req: Request, actor: Actor): void {
  if (SAFE_METHODS.has(req.method)) return;
  if ((actor.type === "human" || actor.type === "ai") && actor.session.via !== "cookie") return;
  if (isCrossSite(headerGetter(req.headers))) {
    throw new ApiError("cross_site_request", "State-changing requests from another site need a Bearer token or API key");
  }
}

function checkAccess(op: Operation, actor: Actor): void {
  if (op.access === "public" || op.access === "optional") return;
  if (actor.type === "anonymous") throw new ApiError("unauthenticated", "Sign in or send a valid Bearer token");
  // Spec 5.4: guardian-only endpoints answer 404 to AI accounts, as if they did not exist.
  if (op.access === "human" && actor.type === "ai") throw new ApiError("not_found", "Not found");
  if (op.access === "admin" && !isAdmin(actor)) throw new ApiError("forbidden", "Administrators only");
}

const gateAct = (op: Operation): Act => ({ permission: op.permission, action: auditAction(op), audited: op.audited });

/** A handler's answer in the audit log (an error it answered itself, e.g. 405, is no success either). */
function auditOutcome(db: Db, op: Operation, actor: AiActor, ip: string, res: Response, call: Call): Promise<void> {
  const via = call.ctx.channel === "rest" ? "" : `${call.ctx.channel} `;
  return auditRecord(db, actor, gateAct(op), ip, res.status < 400, `${via}${call.method} ${call.path} -> ${res.status}`);
}

function toResponse(op: Operation, value: unknown): Response {
  if (value instanceof Response) return value;
  const success =
    Object.keys(op.responses)
      .map(Number)
      .find((s) => s >= 200 && s < 300) ?? 200;
  return json(value ?? null, success);
}

/** Set a header; replayed and constructed responses may have immutable headers: copy then. */
function withHeader(res: Response, name: string, value: string): Response {
  try {
    res.headers.set(name, value);
    return res;
  } catch {
    const out = copyResponse(res, new Headers(res.headers));
    out.headers.set(name, value);
    return out;
  }
}

const openDatabase = (): Promise<Db> =>
  getDb().catch((err: unknown) => {
    throw unavailable(err);
  });

function unavailable(err: unknown): ApiError {
  console.error("database unavailable:", err);
  forgetDatabaseHealth();
  return new ApiError("service_unavailable", "The database is unavailable; retry shortly", { headers: { "Retry-After": "5" } });
}

// Connection failures, and PostgreSQL's own "going away" codes: admin/crash shutdown, cannot
// connect now (57P01-57P03) and connection exceptions (08xxx).
const DB_DOWN_CODE = /^(57P0[123]|08[0-9A-Z]{3})$/i;
const DB_DOWN_TEXT = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|PGlite is closed/i;
// Transaction conflicts that the same request, sent again, gets past: a serialization failure (40001)
// and a deadlock PostgreSQL broke by aborting this transaction (40P01).
const DB_CONFLICT_CODE = /^(40001|40P01)$/;

/** The failure and its causes (Drizzle wraps the driver's error in a DrizzleQueryError): each one's code and message. */
function causes(err: unknown): { code: string; message: string }[] {
  const out: { code: string; message: string }[] = [];
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    // A DrizzleQueryError's message is the statement and its parameters (user text), not the failure.
    out.push({ code: String((e as { code?: unknown }).code ?? ""), message: typeof e === "object" && "query" in e ? "" : String((e as Error).message ?? "") });
  return out;
}

/** Any failure as an ApiError: database outages and transaction conflicts 503, anything unknown 500 (logged). */
export function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  const chain = causes(err);
  if (chain.some((c) => DB_DOWN_CODE.test(c.code) || DB_DOWN_TEXT.test(c.code) || DB_DOWN_TEXT.test(c.message))) return unavailable(err);
  const conflict = chain.find((c) => DB_CONFLICT_CODE.test(c.code));
  if (conflict) {
    console.warn(`[${requestId}] transaction conflict, answered 503:`, conflict.message);
    return new ApiError("service_unavailable", "A concurrent change conflicted with this one; retry shortly", {
      headers: { "Retry-After": "1" },
    });
  }
  console.error(`[${requestId}] unhandled error`, err);
  return new ApiError("internal_error", `Something went wrong on our side (request ${requestId})`, { status: 500 });
}
