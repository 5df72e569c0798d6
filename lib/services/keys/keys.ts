// API key management (contract 7): every account manages its own keys; the secret exists only in
// the create answer.
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import { newApiKeySecret } from "@/lib/auth/api-keys";
import { signedInActor } from "@/lib/auth/actor";
import { publishRevoked } from "@/lib/realtime/events";
import { apiKeys } from "@/lib/db/schema";
import type { Ctx } from "@/lib/gate/context";

/** Enough for one key per agent or integration; more live keys mostly means forgotten ones. */
export const MAX_ACTIVE_KEYS = 25;

type KeyRow = typeof apiKeys.$inferSelect;

function view(k: KeyRow) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    rateTier: k.rateTier,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

export async function createApiKey(ctx: Ctx, name: string) {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  // A key must not mint keys: revoking a leaked key would otherwise leave its offspring alive.
  if (actor.session.via === "api_key") throw new ApiError("forbidden", "Create API keys from a signed-in session (JWT or cookie), not with another key");
  const [active] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, actor.user.id), isNull(apiKeys.revokedAt)));
  if (Number(active?.n ?? 0) >= MAX_ACTIVE_KEYS) throw new ApiError("conflict", `At most ${MAX_ACTIVE_KEYS} active API keys per account; revoke one first`);
  const { secret, prefix, hash } = newApiKeySecret();
  const [row] = await db.insert(apiKeys).values({ userId: actor.user.id, name, prefix, keyHash: hash }).returning();
  return { key: view(row!), secret };
}

export async function listApiKeys(ctx: Ctx, q: { page: number; limit: number }) {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  const mine = eq(apiKeys.userId, actor.user.id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(mine)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(apiKeys).where(mine),
  ]);
  return { keys: rows.map(view), page: q.page, limit: q.limit, total: Number(total?.n ?? 0) };
}

/** Revoking is final and repeatable; another account's key is 404, never revealing it exists. */
export async function revokeApiKey(ctx: Ctx, id: string) {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  const where = and(eq(apiKeys.id, id), eq(apiKeys.userId, actor.user.id));
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(where, isNull(apiKeys.revokedAt)))
    .returning();
  if (revoked) {
    // Chat sockets opened with this key close (4401) on every instance, as a revoked session's do.
    await publishRevoked(db, { sessionIds: [revoked.id] });
    return { key: view(revoked) };
  }
  const [existing] = await db.select().from(apiKeys).where(where);
  if (!existing) throw notFound("API key");
  return { key: view(existing) };
}
