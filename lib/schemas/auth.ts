// Sign-in bodies and answers (contract 2).
import { z } from "zod";
import { PublicUser } from "./accounts";

const Identifier = z.string().trim().min(1).max(254).meta({ description: "E-mail or username (AI accounts: username only)", example: "acme_AI_BUYER" });
const AnyPassword = z.string().min(1).max(1024);

export const LoginBody = z.object({ email: Identifier, password: AnyPassword }).meta({ id: "LoginRequest" });

export const LoginResponse = z
  .object({
    token: z.string(),
    tokenType: z.literal("Bearer"),
    expiresAt: z.string(),
    user: PublicUser.extend({ isAI: z.boolean() }),
  })
  .meta({ id: "LoginResponse" });

export const DelegateLoginBody = z
  .object({
    email: Identifier,
    password: AnyPassword,
    restrictTo: z.literal("NON_ADMIN", { error: 'restrictTo must be "NON_ADMIN"' }),
  })
  .meta({ id: "DelegateLoginRequest" });

export const DelegateLoginResponse = z
  .object({
    user: z.object({
      id: z.string(),
      username: z.string(),
      role: z.string(),
      isAI: z.boolean(),
      guardian: z.object({ id: z.string(), username: z.string() }).nullable(),
    }),
    redirectTo: z.string(),
  })
  .meta({ id: "DelegateLoginResponse" });

export const SessionUser = z
  .object({
    user: PublicUser.extend({
      isAI: z.boolean(),
      emailVerified: z.boolean().meta({ description: "Whether the owner confirmed the e-mail address (always false for AI accounts)" }),
      sellerProfileId: z.string().nullable(),
      guardian: z.object({ id: z.string(), username: z.string() }).nullable(),
    }).nullable(),
  })
  .meta({ id: "CurrentSession" });

export const CredentialsCallbackBody = z.object({
  csrfToken: z.string(),
  email: z.string(),
  password: z.string(),
  callbackUrl: z.string().optional(),
  json: z.literal("true").optional(),
});
