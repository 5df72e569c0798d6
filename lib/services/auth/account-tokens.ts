// The one-time links e-mailed to an account's owner (password reset, e-mail verification). The token
// is 32 random bytes; the table keeps only its HMAC under AUTH_SECRET and the purpose, so a leaked
// row cannot be replayed and a token minted for one purpose is unknown to the other. A token is
// claimed by one conditional UPDATE (unused, unexpired), so two tabs racing on the same link let
// exactly one through.
import { createHmac, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { createTranslator, hasLocale } from "next-intl";
import type { Db } from "@/lib/db/client";
import { accountTokens, emailOutbox, type AccountTokenPurpose } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "@/lib/i18n/locales";

export const TOKEN_TTL_SECONDS: Record<AccountTokenPurpose, number> = {
  password_reset: 60 * 60,
  verify_email: 7 * 24 * 60 * 60,
};

const PAGE: Record<AccountTokenPurpose, string> = { password_reset: "/reset-password", verify_email: "/verify-email" };

export function hashToken(purpose: AccountTokenPurpose, token: string): string {
  return createHmac("sha256", env().AUTH_SECRET).update(`${purpose}:${token}`).digest("base64url");
}

type Recipient = { id: string; email: string; username: string; locale: string | null };

/**
 * Mint a token for `user`, store its hash and queue the e-mail carrying the link in the same
 * transaction (the outbox sends it when SMTP_URL is set). Earlier unused tokens of the same purpose
 * end: only the newest link works.
 */
export async function issueToken(db: Db, user: Recipient, purpose: AccountTokenPurpose): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + TOKEN_TTL_SECONDS[purpose] * 1000);
  const mail = await composeMail(user, purpose, token);
  await db.transaction(async (tx) => {
    await tx
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
    await tx.insert(accountTokens).values({ userId: user.id, purpose, tokenHash: hashToken(purpose, token), email: user.email, expiresAt });
    await tx.insert(emailOutbox).values({ to: user.email, subject: mail.subject, text: mail.text });
  });
}

export type ClaimedToken = { userId: string; email: string };

/**
 * A token that could be used now, read without using it: 400 `token_invalid` (unknown, tampered,
 * other purpose), `token_expired` or `token_used` otherwise. Lets a caller refuse a bad link before
 * costly work (a bcrypt hash); only `claimToken` decides, since the link may be used meanwhile.
 */
export async function checkToken(db: Db, purpose: AccountTokenPurpose, token: string, now = new Date()): Promise<ClaimedToken & { id: string }> {
  const [row] = await db
    .select({
      id: accountTokens.id,
      userId: accountTokens.userId,
      email: accountTokens.email,
      expiresAt: accountTokens.expiresAt,
      usedAt: accountTokens.usedAt,
    })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, hashToken(purpose, token)), eq(accountTokens.purpose, purpose)))
    .limit(1);
  if (!row) throw new ApiError("token_invalid", "This link is not valid; ask for a new one");
  if (row.usedAt) throw new ApiError("token_used", "This link was already used; ask for a new one");
  if (row.expiresAt <= now) throw new ApiError("token_expired", "This link has expired; ask for a new one");
  return { id: row.id, userId: row.userId, email: row.email };
}

/**
 * Use a token once, inside the caller's transaction: the row is marked used only when it was
 * unused and unexpired (`checkToken`'s refusals otherwise).
 */
export async function claimToken(db: Db, purpose: AccountTokenPurpose, token: string): Promise<ClaimedToken> {
  const now = new Date();
  const row = await checkToken(db, purpose, token, now);
  const claimed = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.id, row.id), isNull(accountTokens.usedAt)))
    .returning({ id: accountTokens.id });
  if (claimed.length === 0) throw new ApiError("token_used", "This link was already used; ask for a new one");
  return { userId: row.userId, email: row.email };
}

function localeOf(user: Recipient): Locale {
  return user.locale && hasLocale(LOCALES, user.locale) ? user.locale : DEFAULT_LOCALE;
}

/** Subject and text in the owner's language (messages/<locale>.json, namespace AccountMail). */
async function composeMail(user: Recipient, purpose: AccountTokenPurpose, token: string) {
  const locale = localeOf(user);
  const messages = (await import(`../../../messages/${locale}.json`)).default as { AccountMail: Record<string, string> };
  const t = createTranslator({ locale, messages, namespace: "AccountMail" });
  const site = env().PUBLIC_URL.replace(/\/+$/, "");
  const prefix = locale === DEFAULT_LOCALE ? "" : `/${locale}`;
  const link = `${site}${prefix}${PAGE[purpose]}?token=${encodeURIComponent(token)}`;
  const params = { username: user.username, link, hours: Math.round(TOKEN_TTL_SECONDS[purpose] / 3600) };
  if (purpose === "password_reset") return { subject: t("resetSubject"), text: t("resetBody", params) };
  return { subject: t("verifySubject"), text: t("verifyBody", params) };
}
