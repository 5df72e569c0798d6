// Sign-in for every route (credentials callback, /api/auth/login, delegate-login): humans by
// e-mail or username, AI accounts by username only (an e-mail never resolves to an AI account).
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import { verifyPassword } from "@/lib/auth/password";
import { createSession, revokeSessions, sweepSessions } from "@/lib/auth/sessions";
import type { Db } from "@/lib/db/client";
import { uncounted } from "@/lib/db/query-count";
import { sellerProfiles, sessions, users } from "@/lib/db/schema";
import { sweepDue } from "@/lib/db/sweep";
import { writeAudit } from "@/lib/services/ai/audit";
import { checkLoginThrottle, KNOWN_ADDRESS_DAYS, recordLoginFailure } from "./throttle";

export const BAD_CREDENTIALS = "Wrong username/e-mail or password";

export type SignInInput = {
  identifier: string;
  password: string;
  kind: "cookie" | "token";
  lifetimeSeconds: number;
  ip: string;
  userAgent?: string | null;
  deviceId?: string | null;
};

export type SignedIn = Awaited<ReturnType<typeof signIn>>;

export async function signIn(db: Db, input: SignInInput) {
  const identifier = input.identifier.trim();
  const byEmail = identifier.includes("@");
  const [user] = await db
    .select()
    .from(users)
    .where(
      byEmail
        ? and(eq(sql`lower(${users.email})`, identifier.toLowerCase()), isNull(users.guardianId))
        : eq(sql`lower(${users.username})`, identifier.toLowerCase()),
    )
    .limit(1);
  // Brute-force brakes before the password is even compared (throttle.ts); unknown names alike.
  const subject = { userId: user?.id ?? null, identifier, ip: input.ip };
  await checkLoginThrottle(db, subject);
  const ok = await verifyPassword(input.password, user?.passwordHash);
  const isAI = user?.role === "AI_BUYER" || user?.role === "AI_SELLER";
  if (!user || !ok) {
    await recordLoginFailure(db, subject);
    if (user && isAI) await auditLogin(db, user, input.ip, false, "wrong password");
    throw new ApiError("unauthenticated", BAD_CREDENTIALS);
  }
  let guardian: { id: string; username: string; disabled: boolean } | null = null;
  if (isAI && user.guardianId) {
    const [g] = await db.select({ id: users.id, username: users.username, disabled: users.disabled }).from(users).where(eq(users.id, user.guardianId));
    guardian = g ?? null;
  }
  if (user.disabled || (isAI && (!guardian || guardian.disabled))) {
    if (isAI) await auditLogin(db, user, input.ip, false, "account disabled");
    // Said only after the password matched: to a stranger a disabled account looks like any other.
    throw new ApiError("account_disabled", isAI ? "This AI account is disabled; its guardian can enable it again" : "This account is disabled");
  }
  const [profile] = await db.select({ id: sellerProfiles.id }).from(sellerProfiles).where(eq(sellerProfiles.userId, user.id)).limit(1);
  const session = await db.transaction(async (tx) => {
    const s = await createSession(tx, {
      userId: user.id,
      kind: input.kind,
      deviceId: input.deviceId,
      ip: input.ip,
      userAgent: input.userAgent,
      lifetimeSeconds: input.lifetimeSeconds,
    });
    if (isAI) {
      await auditLogin(tx, user, input.ip, true, `${input.kind} session ${s.id}`);
      if (input.deviceId) await replaceSiblingSessions(tx, user, input.deviceId, input.ip);
    }
    return s;
  });
  // Sessions no sign-in needs any more go about once a minute, in batches (lib/db/sweep.ts): housekeeping never fails a sign-in.
  if (sweepDue("sessions")) await uncounted(() => sweepSessions(db, KNOWN_ADDRESS_DAYS)).catch(() => {});
  return {
    user: { id: user.id, email: user.email, username: user.username, role: user.role, isAI, sellerProfileId: profile?.id ?? null },
    guardian: guardian ? { id: guardian.id, username: guardian.username } : null,
    session,
  };
}

/**
 * Contract 2: the two AI accounts of a guardian are never both signed in in one browser. The
 * sibling's live sessions on this device are revoked and the replacement is audited on its log.
 */
async function replaceSiblingSessions(db: Db, user: { id: string; guardianId: string | null }, deviceId: string, ip: string) {
  if (!user.guardianId) return;
  const siblings = await db
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(users.guardianId, user.guardianId), ne(users.id, user.id), eq(sessions.deviceId, deviceId), isNull(sessions.revokedAt)));
  if (siblings.length === 0) return;
  await revokeSessions(
    db,
    siblings.map((s) => s.sessionId),
    "replaced by sibling sign-in on this device",
  );
  for (const userId of new Set(siblings.map((s) => s.userId))) {
    await writeAudit(db, {
      aiUserId: userId,
      guardianId: user.guardianId,
      action: "auth.session_replaced",
      details: `signed out: ${siblings.filter((s) => s.userId === userId).length} session(s) on this browser replaced by the sibling AI account ${user.id}`,
      ip,
      success: true,
    });
  }
}

async function auditLogin(db: Db, user: { id: string; guardianId: string | null }, ip: string, success: boolean, details: string) {
  if (!user.guardianId) return;
  await writeAudit(db, { aiUserId: user.id, guardianId: user.guardianId, action: "auth.login", details, ip, success });
}

/** Where a signed-in account lands (spec 5.1): an AI_SELLER on /seller, everyone else on /. */
export function landingPath(role: string): string {
  return role === "AI_SELLER" ? "/seller" : "/";
}
