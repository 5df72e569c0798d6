// Accounts, stores (seller profiles), sessions and API keys.
import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";

export const USER_ROLES = ["BUYER", "SELLER", "ADMIN", "AI_BUYER", "AI_SELLER"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const users = pgTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: USER_ROLES }).notNull(),
    /** Set for AI accounts: the human who runs them. */
    guardianId: text("guardian_id").references((): import("drizzle-orm/pg-core").AnyPgColumn => users.id),
    disabled: boolean("disabled").notNull().default(false),
    locale: text("locale"),
    country: text("country"),
    /** ADMIN-granted unlimited rate tier (contract 6). */
    rateTier: text("rate_tier", { enum: ["standard", "unlimited"] })
      .notNull()
      .default("standard"),
    /** When the owner proved they read `email` (a verify-email link); null until then or after a change. */
    emailVerifiedAt: ts("email_verified_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    // E-mail is unique among humans; AI accounts share their guardian's.
    uniqueIndex("users_email_lower_human_key")
      .on(sql`lower(${t.email})`)
      .where(sql`${t.guardianId} is null`),
    index("users_guardian_idx").on(t.guardianId),
  ],
);

export const sellerProfiles = pgTable(
  "seller_profiles",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    companyName: text("company_name").notNull(),
    description: text("description"),
    country: text("country"),
    website: text("website"),
    logoUrl: text("logo_url"),
    bannerUrl: text("banner_url"),
    contactEmail: text("contact_email"),
    phone: text("phone"),
    isPublic: boolean("is_public").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("seller_profiles_user_key").on(t.userId),
    // The home page's newest stores: walked newest first, public ones only.
    index("seller_profiles_public_newest_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.isPublic}`),
    // The stores directory (/stores, GET /api/sellers): its page in name order, and by country (the filter and
    // the list of countries, walked one country at a time).
    index("seller_profiles_public_name_idx")
      .on(t.companyName, t.id)
      .where(sql`${t.isPublic}`),
    index("seller_profiles_public_country_idx")
      .on(sql`lower(${t.country})`, t.companyName, t.id)
      .where(sql`${t.isPublic}`),
  ],
);

/** One row behind every cookie session and Bearer token, so revocation takes effect at once. */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["cookie", "token"] }).notNull(),
    deviceId: text("device_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    revokedReason: text("revoked_reason"),
  },
  // By age: rows no longer needed are swept (lib/auth/sessions.ts sweepSessions).
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_device_idx").on(t.deviceId), index("sessions_created_idx").on(t.createdAt)],
);

/** MCP / API keys: shown once, stored as SHA-256, bound to one account. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    rateTier: text("rate_tier", { enum: ["standard", "unlimited"] })
      .notNull()
      .default("standard"),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash), index("api_keys_user_idx").on(t.userId)],
);

export const ACCOUNT_TOKEN_PURPOSES = ["password_reset", "verify_email"] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/**
 * The e-mailed one-time links (password reset, e-mail verification). Only an HMAC of the token is
 * stored, so a copy of the table cannot be replayed; `email` is the address the link went to.
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [uniqueIndex("account_tokens_hash_key").on(t.tokenHash), index("account_tokens_user_idx").on(t.userId, t.purpose)],
);
