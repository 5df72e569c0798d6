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
import { forgetDatabaseHealth } from "@/lib/services/system/health";
import { ApiError, problemResponse } from "./errors";
import { claimKey, completeKey, releaseKey, requestHash, streamedBody } from "./idempotency";
import { isInternal } from "./internal";
import { jsonShapeProblem } from "./json-shape";
import { copyResponse, textResponse } from "./text-response";
import { auditAction, type Operation } from "./operation";
import { validate } from "./validate";
import { consumeAnonymousTier, consumeRateLimit, rateHeaders, rateKey, type RateState } from "./rate-limit";

export const JSON_BODY_LIMIT = 1024 * 1024;

export type Ctx = { db: Db; actor: Actor; ip: string; requestId: string; userAgent: string };

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

/** A route handler that knows its operation (the dispatcher and MCP find it by that). */
export type OperationHandler = RouteHandler & { readonly op: Operation };

export function route<const O extends Operation>(op: O, handler: (args: HandlerArgs<O>) => Promise<unknown>): OperationHandler {
  const serve = wrap(op, handler);
  const counted: RouteHandler = async (req, context) => {
    if (!countingQueries()) return serve(req, context);
    const { value, queries } = await withQueryCount(() => serve(req, context));
    return withHeader(value, QUERY_COUNT_HEADER, String(queries));
  };
  return Object.assign(counted, { op });
}

function wrap<const O extends Operation>(op: O, handler: (args: HandlerArgs<O>) => Promise<unknown>): RouteHandler {
  return async (req, context) => {
    const requestId = newId();
    const ip = clientIp(req.headers);
    const ctx: Ctx = { db: undefined as unknown as Db, actor: ANONYMOUS, ip, requestId, userAgent: req.headers.get("user-agent") ?? "" };
    let rate: RateState | undefined;
    let audited = false;
    try {
      ctx.db = await getDb().catch((err: unknown) => {
        throw unavailable(err);
      });
      const counted = op.rateLimited !== false && !isInternal(req);
      // Invalid credentials are counted as anonymous by address before their 401 (contract 9.1).
      ctx.actor = await resolveActor(ctx.db, req, counted ? async () => void (rate = await consumeAnonymousTier(ctx.db, ip)) : undefined);
      refuseCrossSite(req, ctx.actor);
      if (counted) {
        const rk = rateKey(ctx.actor, ip);
        if (rk) rate = await consumeRateLimit(ctx.db, rk.key, rk.limit);
      }
      checkAccess(op, ctx.actor);
      const refusal = permissionRefusal(ctx.actor, op.permission);
      if (refusal) throw refusal;
      const params = parse(op.params, await context?.params, "path");
      const query = op.query ? parse(op.query, queryObject(new URL(req.url).searchParams), "query") : undefined;
      const rawBody = op.body && (op.bodyType ?? "json") === "json" ? await readBody(req) : undefined;
      const body = op.body && (op.bodyType ?? "json") === "json" ? parse(op.body, parseJson(rawBody!), "body") : undefined;

      const idemKey = req.headers.get("idempotency-key");
      const idempotent = req.method === "POST" && (op.idempotent ?? true) && idemKey !== null;
      const owner = ctx.actor.type === "human" || ctx.actor.type === "ai" ? `u:${ctx.actor.user.id}` : `ip:${ip}`;
      // A multipart body is hashed as the handler streams it (lib/api/idempotency.ts).
      const streamed = idempotent && op.bodyType === "multipart" ? streamedBody(req, req.method, new URL(req.url).pathname) : undefined;
      if (idempotent) {
        const claim = await claimKey(
          ctx.db,
          owner,
          idemKey,
          req.method,
          new URL(req.url).pathname,
          streamed ?? requestHash(req.method, new URL(req.url).pathname, rawBody ?? ""),
        );
        if (claim.kind === "replay") return finish(claim.response, rate, requestId);
      }
      try {
        const args = { req: streamed?.req ?? req, ctx, body, query, params } as HandlerArgs<O>;
        let response: Response;
        let completed = false;
        if ((ctx.actor.type === "ai" || idempotent) && op.transactional !== false) {
          // One transaction: the handler's writes, an AI account's audit row, and the answer kept
          // for the Idempotency-Key. A crash mid-way leaves none of them, so a retry acts afresh.
          const ai = ctx.actor.type === "ai" ? ctx.actor : null;
          response = await ctx.db.transaction(async (tx) => {
            const res = toResponse(op, await handler({ ...args, ctx: { ...ctx, db: tx } }));
            // A handler may answer an error itself (e.g. 405): that is not a success either.
            if (ai) await auditOutcome(tx, op, ai, ip, res, req);
            // Taken over by a retry meanwhile (this instance was thought dead): undo, the retry acts.
            if (idempotent && !(await completeKey(tx, owner, idemKey, res, streamed?.digest()))) {
              throw new ApiError("idempotency_in_flight", "Another request with this Idempotency-Key took over; retry shortly", {
                headers: { "Retry-After": "1" },
              });
            }
            return res;
          });
          audited = ai !== null;
          completed = idempotent;
        } else {
          response = toResponse(op, await handler(args));
          if (ctx.actor.type === "ai") {
            await auditOutcome(ctx.db, op, ctx.actor, ip, response, req);
            audited = true;
          }
        }
        if (idempotent && !completed) await completeKey(ctx.db, owner, idemKey, response, streamed?.digest());
        return finish(response, rate, requestId);
      } catch (err) {
        if (idempotent) {
          if (err instanceof ApiError) await completeKey(ctx.db, owner, idemKey, problemResponse(err, requestId), streamed?.digest());
          else await releaseKey(ctx.db, owner, idemKey).catch(() => {});
        }
        throw err;
      }
    } catch (err) {
      const apiErr = toApiError(err, requestId);
      if (ctx.actor.type === "ai" && !audited) {
        await auditFailure(ctx.db, ctx.actor, gateAct(op), ip, apiErr).catch((e: unknown) => console.error(`[${requestId}] audit write failed`, e));
      }
      return finish(problemResponse(apiErr, requestId), rate, requestId);
    }
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF: a state-changing request a browser marks as cross-site is refused unless it brought its own
 * credentials (Bearer/API key). Cookie sessions and anonymous calls (sign-in, registration) qualify.
 */
function refuseCrossSite(req: Request, actor: Actor): void {
  if (SAFE_METHODS.has(req.method) || isInternal(req)) return;
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
function auditOutcome(db: Db, op: Operation, actor: AiActor, ip: string, res: Response, req: Request): Promise<void> {
  return auditRecord(db, actor, gateAct(op), ip, res.status < 400, `${req.method} ${new URL(req.url).pathname} -> ${res.status}`);
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

function finish(res: Response, rate: RateState | undefined, requestId: string): Response {
  const out = withHeader(res, "X-Request-Id", requestId);
  if (rate) for (const [k, v] of Object.entries(rateHeaders(rate))) if (!out.headers.has(k)) out.headers.set(k, v);
  return out;
}

function parse(schema: z.ZodType | undefined, value: unknown, where: "path" | "query" | "body"): unknown {
  if (!schema) return undefined;
  return validate(schema, value ?? (where === "body" ? undefined : {}), where);
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  const shape = jsonShapeProblem(text);
  if (shape) throw new ApiError("validation_failed", `The request body is refused unparsed: ${shape}`, { errors: [{ path: "", message: shape }] });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("validation_failed", "The request body is not valid JSON", { errors: [{ path: "", message: "Malformed JSON" }] });
  }
}

/** Read the body as text, refusing more than 1 MiB without buffering the rest. */
export async function readBody(req: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  const type = req.headers.get("content-type") ?? "";
  if (/^multipart\//i.test(type)) throw new ApiError("unsupported_media_type", "Send JSON (Content-Type: application/json)");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ApiError("payload_too_large", `The body exceeds ${limit} bytes`);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", `The body exceeds ${limit} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
}

function unavailable(err: unknown): ApiError {
  console.error("database unavailable:", err);
  forgetDatabaseHealth();
  return new ApiError("service_unavailable", "The database is unavailable; retry shortly", { headers: { "Retry-After": "5" } });
}

const DB_DOWN = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|PGlite is closed/i;

function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown })?.code;
  const text = `${String(code ?? "")} ${(err as Error)?.message ?? ""}`;
  if (DB_DOWN.test(text)) return unavailable(err);
  console.error(`[${requestId}] unhandled error`, err);
  return new ApiError("internal_error", `Something went wrong on our side (request ${requestId})`, { status: 500 });
}
