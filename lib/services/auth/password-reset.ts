// Forgotten passwords and e-mail verification (issue #17). A reset request answers the same way
// whether or not the address belongs to an account (no enumeration); it is braked per address and
// per e-mail whatever the address, so the brake itself tells nothing either. AI accounts never match:
// an e-mail resolves only to a human (their guardian sets their password).
import { and, eq, isNull, sql } from "drizzle-orm";
import { bumpCount, currentWindow } from "@/lib/api/rate-limit";
import { hashPassword } from "@/lib/auth/password";
import { revokeAllCredentials } from "@/lib/auth/revoke";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { checkToken, claimToken, issueToken } from "./account-tokens";

const WINDOW_SECONDS = 60 * 60;
/** Reset e-mails per address per hour: enough for a lost first mail, too few to flood an inbox. */
export const RESET_MAX_PER_EMAIL = 5;
/** Reset requests per source address per hour (many addresses from one office NAT stay fine). */
export const RESET_MAX_PER_IP = 30;
export const VERIFY_MAX_PER_ACCOUNT = 5;

async function brake(db: Db, key: string, limit: number): Promise<void> {
  const count = await bumpCount(db, key, WINDOW_SECONDS);
  if (count <= limit) return;
  const { resetSeconds } = currentWindow(WINDOW_SECONDS);
  throw new ApiError("rate_limited", `Too many requests for this; retry in ${resetSeconds} s`, { headers: { "Retry-After": String(resetSeconds) } });
}

/** POST /api/auth/password-reset: e-mail a reset link to a human account with this address, if any. */
export async function requestPasswordReset(db: Db, input: { email: string; ip: string }): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await brake(db, `pwreset:ip:${input.ip}`, RESET_MAX_PER_IP);
  await brake(db, `pwreset:email:${email}`, RESET_MAX_PER_EMAIL);
  const [user] = await db
    .select({ id: users.id, email: users.email, username: users.username, locale: users.locale, disabled: users.disabled })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email), isNull(users.guardianId)))
    .limit(1);
  // A disabled account gets no link: a reset must not become a way around an administrator's block.
  if (!user || user.disabled) return;
  await issueToken(db, user, "password_reset");
}

/**
 * POST /api/auth/password-reset/confirm: set the new password, end every session, token and API key
 * of the account (open chat sockets close), and use the link up. Reading the e-mail proves the
 * address, so the account counts as verified from here on.
 */
export async function confirmPasswordReset(db: Db, input: { token: string; password: string }): Promise<{ revokedSessions: number }> {
  // A link that cannot be used is refused before the hash (~75 ms of CPU), so made-up links cost one
  // indexed read; hashed before the transaction, as bcrypt is slow and PGlite runs one query at a time.
  await checkToken(db, "password_reset", input.token);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const claimed = await claimToken(tx, "password_reset", input.token);
    const [user] = await tx
      .select({ id: users.id, email: users.email, disabled: users.disabled, guardianId: users.guardianId })
      .from(users)
      .where(eq(users.id, claimed.userId));
    if (!user || user.disabled || user.guardianId) throw new ApiError("token_invalid", "This link is not valid; ask for a new one");
    const sameAddress = user.email.toLowerCase() === claimed.email.toLowerCase();
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date(), ...(sameAddress ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` } : {}) })
      .where(eq(users.id, user.id));
    const revoked = await revokeAllCredentials(tx, user.id, "password reset");
    return { revokedSessions: revoked.sessions };
  });
}

/** Queue a verification link for a human account whose address is not verified yet (registration, "resend"). */
export async function sendVerification(db: Db, userId: string): Promise<{ sent: boolean }> {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      locale: users.locale,
      guardianId: users.guardianId,
      verifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || user.guardianId) throw new ApiError("forbidden", "AI accounts have no e-mail address of their own to verify");
  if (user.verifiedAt) return { sent: false };
  await brake(db, `verify:acct:${user.id}`, VERIFY_MAX_PER_ACCOUNT);
  await issueToken(db, user, "verify_email");
  return { sent: true };
}

/** POST /api/auth/verify-email: the link proves the address it was sent to, if it is still the account's. */
export async function verifyEmail(db: Db, token: string): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const claimed = await claimToken(tx, "verify_email", token);
    const [user] = await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(and(eq(users.id, claimed.userId), eq(sql`lower(${users.email})`, claimed.email.toLowerCase())))
      .returning({ email: users.email });
    // The owner changed the address since: this link verifies nothing any more.
    if (!user) throw new ApiError("token_invalid", "This link was for an earlier e-mail address; ask for a new one");
    return { email: user.email };
  });
}

/** Whether the account's address is verified (for /api/auth/me and the settings page). */
export async function emailVerified(db: Db, userId: string): Promise<boolean> {
  const [u] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
  return !!u?.at;
}
