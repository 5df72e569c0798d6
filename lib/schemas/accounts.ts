// Account registration and the user shapes the API returns.
import "./zod-csp";
import { z } from "zod";
import { LOCALES } from "@/lib/i18n/locales";

export const Username = z
  .string()
  .trim()
  .min(3, "At least 3 characters")
  .max(32, "At most 32 characters")
  .regex(/^[A-Za-z0-9_.-]+$/, "Letters, digits, '_', '.' and '-' only")
  .refine((v) => !/_AI_/i.test(v), "May not contain _AI_ (reserved for AI accounts)")
  .meta({ example: "acme_buyer" });

export const Password = z.string().min(8, "At least 8 characters").max(128, "At most 128 characters").meta({ example: "correct-horse-battery" });

export const CreateAccountBody = z
  .object({
    email: z.string().trim().max(254).pipe(z.email("A valid e-mail address")).meta({ example: "buyer@example.com" }),
    username: Username,
    password: Password,
    role: z.enum(["BUYER", "SELLER"]),
    companyName: z.string().trim().min(1).max(200).optional(),
    country: z.string().trim().max(100).optional(),
    locale: z.enum(LOCALES).optional(),
  })
  .meta({ id: "CreateAccount" });
export type CreateAccountInput = z.infer<typeof CreateAccountBody>;

export const PublicUser = z
  .object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    role: z.enum(["BUYER", "SELLER", "ADMIN", "AI_BUYER", "AI_SELLER"]),
  })
  .meta({ id: "User" });

export const CreateAccountResponse = z.object({ user: PublicUser });
