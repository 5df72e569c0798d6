// problem+json: how an ApiError (lib/errors.ts) is answered over HTTP (contract 1).
import { ERROR_CODES, type ApiError, type FieldError } from "@/lib/errors";
import { textResponse } from "./text-response";

export type Problem = {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  requestId?: string;
};

export const WWW_AUTHENTICATE = 'Bearer realm="expo-trade"';

export function problemBody(err: ApiError, requestId?: string): Problem {
  return {
    type: "about:blank",
    title: ERROR_CODES[err.code].title,
    status: err.status,
    code: err.code,
    detail: err.message,
    ...(err.errors ? { errors: err.errors } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

export function problemResponse(err: ApiError, requestId?: string, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/problem+json");
  // RFC 9110: a 401 names the scheme that would work, so a client knows to send a Bearer token.
  if (err.status === 401 && !h.has("WWW-Authenticate")) h.set("WWW-Authenticate", WWW_AUTHENTICATE);
  for (const [k, v] of Object.entries(err.headers ?? {})) h.set(k, v);
  return textResponse(JSON.stringify(problemBody(err, requestId)), { status: err.status, headers: h });
}
