// The NextAuth credentials callback for API clients (contract 9.5): NextAuth answers a failed CSRF
// check with 200 and a `?csrf=true` URL, a wrong password with 401 `{url}`, and a malformed JSON
// body with a 500. A client that asked for JSON (a JSON body or `Accept: application/json`) gets
// problem+json instead, with the codes POST /api/auth/login uses. The
// site's own sign-in form (next-auth/react's signIn(): a form body, `Accept: */*`) reads NextAuth's
// `{url}` answers and keeps getting them unchanged.
import { NextRequest } from "next/server";
import { problemResponse } from "@/lib/api/errors";
import { ApiError } from "@/lib/errors";
import { BAD_CREDENTIALS } from "@/lib/services/auth/sign-in";
import { SIGN_IN_DISABLED, SIGN_IN_THROTTLED } from "./options";

const CALLBACK = /\/api\/auth\/callback\/credentials\/?$/;

export function isCredentialsCallback(req: Request): boolean {
  return req.method === "POST" && CALLBACK.test(new URL(req.url).pathname);
}

const jsonType = (type: string) => type === "application/json" || /^application\/[\w.-]+\+json$/.test(type);

/** A client that asked for JSON by name; a bare `*` / `*` (what fetch sends by default) does not count. */
export function wantsJsonAnswer(headers: Headers): boolean {
  if (jsonType(mediaType(headers.get("content-type")))) return true;
  const accept = (headers.get("accept") ?? "").toLowerCase();
  return accept.split(",").some((part) => {
    const [range, ...params] = part.split(";").map((s) => s.trim());
    const q = params.find((p) => p.startsWith("q="));
    return !!range && jsonType(range) && (q === undefined || Number(q.slice(2)) > 0);
  });
}

const mediaType = (value: string | null) => (value ?? "").split(";")[0]!.trim().toLowerCase();

/** The fields of a JSON or form body as strings, or the problem that refuses it. */
async function readFields(req: Request): Promise<URLSearchParams> {
  const type = mediaType(req.headers.get("content-type"));
  const text = await req.text();
  if (type === "application/x-www-form-urlencoded") return new URLSearchParams(text);
  if (!jsonType(type)) throw new ApiError("unsupported_media_type", "Send the credentials as application/json or application/x-www-form-urlencoded");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("validation_failed", "The body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ApiError("validation_failed", "The body must be a JSON object");
  const fields = new URLSearchParams();
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") fields.set(k, String(v));
    else if (v !== null && v !== undefined)
      throw new ApiError("validation_failed", `${k} must be a string`, { errors: [{ path: k, message: "Expected a string" }] });
  }
  return fields;
}

/** Answer the credentials callback for an API client: NextAuth decides, this shapes its answer. */
export async function credentialsForApi(req: Request, nextAuth: (req: NextRequest) => Promise<Response>): Promise<Response> {
  let fields: URLSearchParams;
  try {
    fields = await readFields(req);
  } catch (err) {
    if (err instanceof ApiError) return problemResponse(err);
    throw err;
  }
  // NextAuth answers `{url}` instead of a redirect only for the string "true".
  fields.set("json", "true");
  const headers = new Headers(req.headers);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.delete("content-length");
  const res = await nextAuth(new NextRequest(req.url, { method: "POST", headers, body: fields.toString() }));
  const url = await res
    .clone()
    .json()
    .then((b: { url?: unknown }) => (typeof b?.url === "string" ? new URL(b.url, req.url) : null))
    .catch(() => null);
  const refusal = url ? refusalFor(res.status, url) : null;
  return refusal ? problemResponse(refusal) : res;
}

function refusalFor(status: number, url: URL): ApiError | null {
  if (url.searchParams.get("csrf") === "true")
    return new ApiError("csrf_failed", "Send the csrfToken from GET /api/auth/csrf together with the CSRF cookie that answer set");
  const error = url.searchParams.get("error");
  if (error === SIGN_IN_THROTTLED) return new ApiError("rate_limited", "Too many sign-in attempts; wait and try again", { headers: { "Retry-After": "60" } });
  if (error === SIGN_IN_DISABLED) return new ApiError("account_disabled", "This account is disabled");
  if (status === 401 || error === "CredentialsSignin") return new ApiError("unauthenticated", BAD_CREDENTIALS);
  if (error) return new ApiError("service_unavailable", "Sign-in is unavailable; retry shortly", { headers: { "Retry-After": "5" } });
  return null;
}
