import { z } from "zod";
import { CreateAccountBody, CreateAccountResponse, Password } from "@/lib/schemas/accounts";
import { DelegateLoginBody, DelegateLoginResponse, LoginBody, LoginResponse, SessionUser } from "@/lib/schemas/auth";
import { errorResponses } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

export const createAccountOp = defineOperation({
  method: "POST",
  path: "/api/accounts/create",
  operationId: "createAccount",
  summary: "Register a buyer or seller",
  description: "A `SELLER` also gets a store (seller profile) named after `companyName`. AI accounts are created by their guardian at `/api/ai/accounts`.",
  tags: ["Accounts"],
  access: "public",
  permission: "none",
  action: "account.create",
  body: CreateAccountBody,
  responses: { 201: { description: "Created", schema: CreateAccountResponse }, ...errorResponses(400, 409, 429) },
});

export const loginOp = defineOperation({
  method: "POST",
  path: "/api/auth/login",
  operationId: "login",
  summary: "Sign in and get a Bearer token",
  description:
    "Humans sign in with e-mail or username, AI accounts with their username only. The JWT (HS256, 12 h) goes in `Authorization: Bearer <token>` on later requests; each token has a server-side session, revoked by logout.",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  action: "auth.login",
  body: LoginBody,
  idempotent: false,
  responses: { 200: { description: "Signed in", schema: LoginResponse }, ...errorResponses(400, 401, 429) },
});

export const delegateLoginOp = defineOperation({
  method: "POST",
  path: "/api/auth/delegate-login",
  operationId: "delegateLogin",
  summary: "Sign in an AI account (or a non-admin human) and get a session cookie",
  description: "`email` carries the AI account's username. `restrictTo` must be `NON_ADMIN`. Answers with the user and where the web client should go next.",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  action: "auth.login",
  body: DelegateLoginBody,
  idempotent: false,
  responses: { 200: { description: "Signed in; session cookie set", schema: DelegateLoginResponse }, ...errorResponses(400, 401, 403, 429) },
});

export const logoutOp = defineOperation({
  method: "POST",
  path: "/api/auth/logout",
  operationId: "logout",
  summary: "End the current session (cookie or Bearer token)",
  tags: ["Auth"],
  access: "user",
  permission: "none",
  action: "auth.logout",
  idempotent: false,
  responses: { 200: { description: "Signed out", schema: z.object({ ok: z.literal(true) }) }, ...errorResponses(401) },
});

export const currentUserOp = defineOperation({
  method: "GET",
  path: "/api/auth/me",
  operationId: "currentUser",
  summary: "Who is signed in (null when nobody)",
  tags: ["Auth"],
  access: "optional",
  permission: "none",
  action: "auth.me",
  audited: false,
  responses: { 200: { description: "The signed-in account", schema: SessionUser }, ...errorResponses(401) },
});

export const changePasswordOp = defineOperation({
  method: "POST",
  path: "/api/user/password",
  operationId: "changePassword",
  summary: "Change your password; every session, token and API key of the account ends (sign in again)",
  description:
    "Ends the request's own session too (`signInAgain: true`; the session cookie is cleared), every other session and token, and every API key, and closes the account's chat sockets. AI accounts cannot change their own password (403 `forbidden`): their guardian sets it with `PATCH /api/ai/accounts`.",
  tags: ["Accounts"],
  access: "user",
  permission: "none",
  action: "account.password",
  idempotent: false,
  body: z.object({ currentPassword: z.string().min(1).max(1024), newPassword: Password }).meta({ id: "ChangePassword" }),
  responses: {
    200: {
      description: "Changed",
      schema: z.object({
        ok: z.literal(true),
        revokedSessions: z.number().meta({ description: "Sessions ended, the current one included" }),
        revokedApiKeys: z.number().meta({ description: "API keys revoked" }),
        signInAgain: z.literal(true).meta({ description: "The current session ended too: sign in with the new password" }),
      }),
    },
    ...errorResponses(400, 401, 403, 429),
  },
});
