// Shapes shared by many endpoints: problem details, pagination, ids.
import "./zod-csp";
import { z } from "zod";

export const ProblemSchema = z
  .object({
    type: z.string().meta({ example: "about:blank" }),
    title: z.string(),
    status: z.number().int(),
    code: z.string().meta({ description: "Stable machine-readable error code", example: "validation_failed" }),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1).meta({ description: "1-based page" }),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Items per page (max 100)" }),
});

/**
 * A link or image address a page will render (`href`, `src`): an http(s) URL or a path on this
 * site. `javascript:`, `data:`, `//host` and `/\\host` never pass (stored XSS through link fields).
 */
export const LinkUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine(
    (v) => (/^\/(?![/\\])/.test(v) || /^https?:\/\/[^/\\\s]/i.test(v)) && !/[\u0000-\u001f\s]/.test(v),
    "An http(s) URL or a path on this site (starting with /)",
  )
  .meta({ example: "/uploads/3f/0193c4d2-7b1e-7c3a-9f4e-2a6b8c0d1e3f" });

/** The largest amount a money column holds: numeric(14,2) (lib/db/schema/columns.ts). */
export const MONEY_MAX = 999_999_999_999.99;

export const IdParam = z.object({ id: z.string().min(1).max(100) });

export const Timestamp = z.string().meta({ description: "ISO 8601 UTC", example: "2026-11-21T09:30:00.000Z" });

/** Standard error answers, added to each operation's responses. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [s, { description: ERROR_DESCRIPTIONS[s] ?? "Error", schema: ProblemSchema, contentType: "application/problem+json" }]),
  );

const ERROR_DESCRIPTIONS: Record<number, string> = {
  // Every operation: the server refuses a malformed or repeated Host header before any route (lib/server/host.ts).
  400: "Malformed JSON, failed validation or a malformed Host header (`validation_failed`)",
  401: "No or bad credentials (`unauthenticated`)",
  403: "Not allowed (`permission_denied`, `forbidden`, ...)",
  404: "Not found",
  409: "Conflict",
  413: "Too large",
  415: "Wrong media type",
  422: "Idempotency key reused with another body",
  429: "Rate limited (`rate_limited`, with Retry-After)",
  503: "Database unavailable",
};
