// The error every layer throws (contract 1), independent of how it reaches the client: the REST
// wrapper answers it as problem+json (lib/api/errors.ts), MCP as a tool error, the chat socket as
// an error frame. The code table is closed: a new code is added here with its status and title.
export const ERROR_CODES = {
  validation_failed: { status: 400, title: "Validation failed" },
  token_invalid: { status: 400, title: "Link invalid" },
  token_expired: { status: 400, title: "Link expired" },
  token_used: { status: 400, title: "Link already used" },
  unauthenticated: { status: 401, title: "Unauthenticated" },
  permission_denied: { status: 403, title: "Permission denied" },
  forbidden: { status: 403, title: "Forbidden" },
  account_disabled: { status: 403, title: "Account disabled" },
  self_trade_forbidden: { status: 403, title: "Self-trade forbidden" },
  ai_not_allowed: { status: 403, title: "Not allowed for AI accounts" },
  cross_site_request: { status: 403, title: "Cross-site request refused" },
  csrf_failed: { status: 403, title: "CSRF token missing or invalid" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict" },
  username_taken: { status: 409, title: "Username taken" },
  email_taken: { status: 409, title: "E-mail already registered" },
  keywords_required: { status: 400, title: "Keywords required" },
  booth_full: { status: 409, title: "Booth full" },
  ai_account_exists: { status: 409, title: "AI account exists" },
  seller_profile_required: { status: 409, title: "Seller profile required" },
  idempotency_in_flight: { status: 409, title: "Request in flight" },
  invalid_state: { status: 409, title: "Invalid state" },
  offer_expired: { status: 409, title: "Offer expired" },
  offer_not_orderable: { status: 409, title: "Offer names no product" },
  request_timeout: { status: 408, title: "Request timeout" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  idempotency_conflict: { status: 422, title: "Idempotency key reused" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal server error" },
  service_unavailable: { status: 503, title: "Service unavailable" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type FieldError = { path: string; message: string };

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    detail: string,
    options: { status?: number; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = options.status ?? ERROR_CODES[code].status;
    this.errors = options.errors;
    this.headers = options.headers;
  }
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
}

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found`);
export const unauthenticated = (detail = "Sign in or send a valid Bearer token") => new ApiError("unauthenticated", detail);
export const forbidden = (detail: string) => new ApiError("forbidden", detail);

/** Turn zod issues into the `errors` array of a validation problem. */
export function fieldErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldError[] {
  return issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}
