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

const ResetToken = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({ description: "The `token` parameter of the e-mailed link", example: "q8V0c3J2o1lq3QXgYw9m1aN8m0J4kFf3iQ0uE2yB7cA" });
const Accepted = z
  .object({ ok: z.literal(true), message: z.string().meta({ example: "If an account uses this address, a link is on its way." }) })
  .meta({ id: "Accepted" });

export const passwordResetOp = defineOperation({
  method: "POST",
  path: "/api/auth/password-reset",
  operationId: "requestPasswordReset",
  summary: "E-mail a password-reset link",
  description:
    "Answers 202 the same way whether or not a human account uses the address (no account discovery). When one does, it receives a link to `/reset-password?token=...`, valid for one hour and once, in its language; an earlier unused link stops working. AI accounts have no e-mail reset: their guardian sets their password (`PATCH /api/ai/accounts`). Limited per e-mail address and per source address (429 with `Retry-After`).",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  action: "auth.password_reset",
  idempotent: false,
  body: z
    .object({ email: z.string().trim().max(254).pipe(z.email("A valid e-mail address")).meta({ example: "buyer@example.com" }) })
    .meta({ id: "PasswordResetRequest" }),
  responses: { 202: { description: "Accepted (whether or not the address is known)", schema: Accepted }, ...errorResponses(400, 429) },
});

export const passwordResetConfirmOp = defineOperation({
  method: "POST",
  path: "/api/auth/password-reset/confirm",
  operationId: "confirmPasswordReset",
  summary: "Set a new password with the e-mailed link",
  description:
    "Sets the password, ends every session, token and API key of the account (its chat sockets close) and uses the link up. A link that is unknown or altered answers 400 `token_invalid`, one used before `token_used`, one older than an hour `token_expired`.",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  action: "auth.password_reset_confirm",
  idempotent: false,
  body: z.object({ token: ResetToken, password: Password }).meta({ id: "PasswordResetConfirm" }),
  responses: {
    200: {
      description: "Password set; sign in with it",
      schema: z.object({ ok: z.literal(true), revokedSessions: z.number().meta({ description: "Sessions ended", example: 2 }) }),
    },
    ...errorResponses(400, 429),
  },
});

export const verifyEmailOp = defineOperation({
  method: "POST",
  path: "/api/auth/verify-email",
  operationId: "verifyEmail",
  summary: "Confirm the account's e-mail address with the e-mailed link",
  description:
    "Registration e-mails a link to `/verify-email?token=...` (valid 7 days, once). Marks the address verified (`emailVerified: true` in `GET /api/auth/me`). 400 `token_invalid` / `token_used` / `token_expired` as for a password reset; a link sent to an address the account no longer uses is `token_invalid`.",
  tags: ["Auth"],
  access: "public",
  permission: "none",
  action: "auth.verify_email",
  idempotent: false,
  body: z.object({ token: ResetToken }).meta({ id: "VerifyEmail" }),
  responses: {
    200: { description: "Verified", schema: z.object({ ok: z.literal(true), email: z.string().meta({ example: "buyer@example.com" }) }) },
    ...errorResponses(400, 429),
  },
});

export const resendVerificationOp = defineOperation({
  method: "POST",
  path: "/api/auth/verify-email/resend",
  operationId: "resendVerification",
  summary: "E-mail a new verification link to the signed-in account",
  description:
    "`sent: false` when the address is verified already. An earlier unused link stops working. Five per hour per account (429 with `Retry-After`). Humans only: AI accounts have no address of their own.",
  tags: ["Auth"],
  access: "human",
  permission: "none",
  action: "auth.verify_email_resend",
  idempotent: false,
  responses: {
    202: {
      description: "Queued (or nothing to do)",
      schema: z.object({ ok: z.literal(true), sent: z.boolean().meta({ description: "Whether a link was sent", example: true }) }),
    },
    ...errorResponses(401, 404, 429),
  },
});
