// NextAuth's own endpoints under /api/auth/[...nextauth]: documented here; the handler is NextAuth's.
import { z } from "zod";
import { CredentialsCallbackBody } from "@/lib/schemas/auth";
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
    "Send the `csrfToken` from `/api/auth/csrf` with the CSRF cookie it set. On success the session cookie is set; check for the cookie, not the status (a failed sign-in also answers 200 with an error `url`).",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  external: true,
  action: "auth.login",
  bodyType: "form",
  body: CredentialsCallbackBody,
  idempotent: false,
  responses: { 200: { description: "Result with the URL to go to", schema: z.object({ url: z.string() }) } },
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
