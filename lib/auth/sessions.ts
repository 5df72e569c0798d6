// Server-side session rows: created at every sign-in, checked on every request, revocable.
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { defaultPermissions, isPermission, type AiRole } from "@/lib/ai/permissions";
import type { Db } from "@/lib/db/client";
import { sweepRows } from "@/lib/db/sweep";
import { aiPermissions, sellerProfiles, sessions, users } from "@/lib/db/schema";
import { publishRevoked } from "@/lib/realtime/events";
import type { AiActor, HumanActor, SessionRef } from "./actor";

export const COOKIE_SESSION_SECONDS = 30 * 24 * 60 * 60;

export async function createSession(
  db: Db,
  input: { userId: string; kind: "cookie" | "token"; deviceId?: string | null; ip?: string | null; userAgent?: string | null; lifetimeSeconds: number },
) {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: input.userId,
      kind: input.kind,
      deviceId: input.deviceId ?? null,
      ip: input.ip ?? null,
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      expiresAt: new Date(Date.now() + input.lifetimeSeconds * 1000),
    })
    .returning();
  return row!;
}

/**
 * Delete a batch of sessions that can never be used again (expired or revoked) and started more than
 * `keptDays` ago: sign-in still asks whether an account used an address within that time (throttle.ts).
 */
export function sweepSessions(db: Db, keptDays: number): Promise<number> {
  return sweepRows(
    db,
    sessions,
    sql`${sessions.createdAt} < now() - make_interval(days => ${keptDays}) and (${sessions.expiresAt} < now() or ${sessions.revokedAt} is not null)`,
  );
}

export async function revokeSessions(db: Db, ids: string[], reason: string): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(inArray(sessions.id, ids), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  if (rows.length) await publishRevoked(db, { sessionIds: rows.map((r) => r.id) });
  return rows.length;
}

export async function revokeUserSessions(db: Db, userId: string, reason: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  await publishRevoked(db, { userId, sessionIds: rows.map((r) => r.id) });
  return rows.length;
}

export const guardians = alias(users, "guardian");
export const guardianProfiles = alias(sellerProfiles, "guardian_profile");

/** The columns `actorFromRow` needs; select them with the joins of `actorForSession`. */
export const actorColumns = {
  user: users,
  profileId: sellerProfiles.id,
  guardianUsername: guardians.username,
  guardianDisabled: guardians.disabled,
  guardianProfileId: guardianProfiles.id,
};

type ActorRow = {
  user: typeof users.$inferSelect;
  profileId: string | null;
  guardianUsername: string | null;
  guardianDisabled: boolean | null;
  guardianProfileId: string | null;
};

/**
 * The signed-in actor behind a live session, or null when the session is unknown, revoked,
 * expired, belongs to someone else, or its account (or an AI account's guardian) is disabled.
 */
export async function actorForSession(db: Db, sessionId: string, userId: string, via: SessionRef["via"]): Promise<HumanActor | AiActor | null> {
  const [row] = await sessionStatement(db).execute({ sessionId, userId });
  return row ? actorFromRow(db, row, { id: sessionId, via }) : null;
}

// Every signed-in request runs this lookup: the statement is built once per database object.
const prepared = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();
function prepareSessionLookup(db: Db) {
  return db
    .select(actorColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(sellerProfiles, eq(sellerProfiles.userId, users.id))
    .leftJoin(guardians, eq(guardians.id, users.guardianId))
    .leftJoin(guardianProfiles, eq(guardianProfiles.userId, users.guardianId))
    .where(
      and(
        eq(sessions.id, sql.placeholder("sessionId")),
        eq(sessions.userId, sql.placeholder("userId")),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.disabled, false),
      ),
    )
    .limit(1)
    .prepare("session_actor");
}
function sessionStatement(db: Db) {
  let stmt = prepared.get(db);
  if (!stmt) prepared.set(db, (stmt = prepareSessionLookup(db)));
  return stmt;
}

/**
 * Build the actor of an enabled account row (sessions and API keys share this), or null for an
 * AI account whose guardian is missing or disabled. `rateTier` overrides the account's tier.
 */
export async function actorFromRow(db: Db, row: ActorRow, session: SessionRef, rateTier?: "unlimited"): Promise<HumanActor | AiActor | null> {
  const u = row.user;
  const tier = rateTier ?? u.rateTier;
  const account = {
    id: u.id,
    username: u.username,
    email: u.email,
    role: u.role,
    sellerProfileId: row.profileId ?? null,
    emailVerified: u.emailVerifiedAt !== null,
  };
  if (u.role !== "AI_BUYER" && u.role !== "AI_SELLER") {
    return { type: "human", user: account, session, rateTier: tier };
  }
  if (!u.guardianId || row.guardianDisabled !== false) return null;
  const perms = await db.select().from(aiPermissions).where(eq(aiPermissions.aiUserId, u.id));
  const permissions = defaultPermissions(u.role as AiRole);
  for (const p of perms) if (isPermission(p.permission)) permissions[p.permission] = p.isAllowed;
  return {
    type: "ai",
    user: { ...account, role: u.role, sellerProfileId: null },
    guardian: { id: u.guardianId, username: row.guardianUsername ?? "", sellerProfileId: row.guardianProfileId ?? null },
    permissions,
    session,
    rateTier: tier,
  };
}
