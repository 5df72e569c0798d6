// An operation is the one description of an endpoint: its path, who may call it, the permission an
// AI account needs, and the zod schemas of its input and output. The route wrapper enforces it and
// the OpenAPI document is generated from the same objects.
import type { z } from "zod";
import type { Permission } from "@/lib/ai/permissions";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: `public` anyone; `optional` anyone, the actor is resolved when credentials come;
 * `user` any signed-in account; `human` a signed-in human (AI accounts get 404, spec 5.4);
 * `admin` an ADMIN.
 */
export type Access = "public" | "optional" | "user" | "human" | "admin";

export type ResponseSpec = {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  /** Further media types the same status may answer with (e.g. `text/csv` for a download). */
  alternatives?: Record<string, z.ZodType>;
};

export type Operation = {
  method: HttpMethod;
  /** OpenAPI path, `{id}` for parameters: `/api/products/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  access: Access;
  /**
   * What an AI account needs: a permission of spec 5.3, or `none` with the audit `action` name
   * recorded instead. Declared on every operation; the matrix test walks them all.
   */
  permission: Permission | "none";
  action?: string;
  body?: z.ZodType;
  bodyType?: "json" | "form" | "multipart";
  query?: z.ZodType;
  params?: z.ZodType;
  responses: Record<number, ResponseSpec>;
  /** Idempotency-Key support (POST default true). */
  idempotent?: boolean;
  /** Counted against the rate tier (default true; health is exempt). */
  rateLimited?: boolean;
  /** Written to an AI account's audit log (default true; reading one's own session is not an action). */
  audited?: false;
  /** Run an AI account's call and its audit row in one transaction (default true). */
  transactional?: boolean;
  /** Served by NextAuth's own handler rather than by route() (so none of the wrapper's answers). */
  external?: true;
};

/** Type an operation (its literal types kept); the list of all of them is ./operations/list.ts. */
export function defineOperation<const O extends Operation>(op: O): O {
  return op;
}

/** The audit action name of an operation: its permission, or its declared action. */
export function auditAction(op: Operation): string {
  return op.permission !== "none" ? op.permission : (op.action ?? op.operationId);
}

/**
 * The error answers route() itself may give for an operation, whatever its handler does: bad
 * credentials (also on public routes: a Bearer token that was sent is checked), database down,
 * rate limit, input validation, body size and type, the AI permission, human-only (404 to AI
 * accounts) and admin-only routes, and Idempotency-Key conflicts; and the server's own 400 for a
 * malformed or repeated Host header (lib/server/host.ts), given before any route, NextAuth's too.
 * The OpenAPI document lists them.
 */
export function wrapperStatuses(op: Operation): number[] {
  if (op.external) return [400];
  const out = [400, 401, 503];
  if (op.rateLimited !== false) out.push(429);
  if (op.body && (op.bodyType ?? "json") === "json") out.push(413, 415);
  if (op.access === "human") out.push(404);
  // 403 also for a state-changing request a browser marks as cross-site (`cross_site_request`).
  if (op.access === "admin" || op.permission !== "none" || !["GET", "HEAD", "OPTIONS"].includes(op.method)) out.push(403);
  if (op.method === "POST" && (op.idempotent ?? true)) out.push(409, 422);
  return out;
}
