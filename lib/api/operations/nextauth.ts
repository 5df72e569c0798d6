// NextAuth's own endpoints under /api/auth/[...nextauth]: documented here; the handler is NextAuth's.
import { z } from "zod";
import { CredentialsCallbackBody } from "@/lib/schemas/auth";
import { errorResponses } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

export const csrfOp = defineOperation({
  method: "GET",
  path: "/api/auth/csrf",
  operationId: "csrf",
  summary: "CSRF token for the credentials callback (also sets the CSRF cookie)",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  external: true,
  action: "auth.csrf",
  responses: { 200: { description: "Token", schema: z.object({ csrfToken: z.string() }) } },
});

export const credentialsCallbackOp = defineOperation({
  method: "POST",
  path: "/api/auth/callback/credentials",
  operationId: "credentialsCallback",
  summary: "Sign in with the credentials provider (form-urlencoded; `json=true`)",
  description:
    "Send the `csrfToken` from `/api/auth/csrf` with the CSRF cookie it set. On success the session cookie is set. A client that sends JSON or `Accept: application/json` gets problem+json refusals: 400 malformed body, 403 `csrf_failed` (token or cookie missing or wrong), 401 `unauthenticated` (wrong credentials, as `/api/auth/login`), 429 `rate_limited`. A form post without those (the site's sign-in form) gets NextAuth's own answers: 200 `{url}`, or 401 `{url}` with `error` in the URL.",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  external: true,
  action: "auth.login",
  bodyType: "form",
  body: CredentialsCallbackBody,
  idempotent: false,
  responses: {
    200: { description: "Result with the URL to go to", schema: z.object({ url: z.string() }) },
    ...errorResponses(400, 401, 403, 415, 429, 503),
  },
});

export const sessionOp = defineOperation({
  method: "GET",
  path: "/api/auth/session",
  operationId: "nextAuthSession",
  summary: "NextAuth session of the cookie (empty object when signed out)",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  external: true,
  action: "auth.session",
  responses: { 200: { description: "Session", schema: z.looseObject({}) } },
});

export const signoutOp = defineOperation({
  method: "POST",
  path: "/api/auth/signout",
  operationId: "nextAuthSignout",
  summary: "Sign out the cookie session (form-urlencoded with csrfToken); revokes its server-side session",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  external: true,
  action: "auth.logout",
  bodyType: "form",
  body: z.object({ csrfToken: z.string(), callbackUrl: z.string().optional(), json: z.literal("true").optional() }),
  idempotent: false,
  responses: { 200: { description: "Signed out", schema: z.object({ url: z.string() }) } },
});

export const providersOp = defineOperation({
  method: "GET",
  path: "/api/auth/providers",
  operationId: "nextAuthProviders",
  summary: "Configured sign-in providers",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  external: true,
  action: "auth.providers",
  responses: { 200: { description: "Providers", schema: z.looseObject({}) } },
});
