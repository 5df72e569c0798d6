// API keys (contract 7): `etk_` + 32 random bytes, shown once, stored only as SHA-256. A key acts
// as its account: same permissions, audit and rate tier (unless an ADMIN marked the key unlimited).
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, sellerProfiles, users } from "@/lib/db/schema";
import type { AiActor, HumanActor } from "./actor";
import { actorColumns, actorFromRow, guardianProfiles, guardians } from "./sessions";

export const API_KEY_PREFIX = "etk_";
/** Characters of the secret kept in clear so owners can tell their keys apart. */
const SHOWN_CHARS = 12;
/** `lastUsedAt` is a hint, not a log: writing it on every request would double the writes. */
const TOUCH_INTERVAL_MS = 60_000;

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX);
}

export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const secret = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  return { secret, prefix: secret.slice(0, SHOWN_CHARS), hash: hashApiKey(secret) };
}

/** A plain SHA-256 suffices: the secret has 256 bits of entropy, so there is nothing to brute-force. */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The actor a key acts as, or null for an unknown or revoked key or a disabled account/guardian. */
export async function actorForApiKey(db: Db, secret: string): Promise<HumanActor | AiActor | null> {
  if (!looksLikeApiKey(secret) || secret.length > 200) return null;
  return actorForKeyWhere(db, eq(apiKeys.keyHash, hashApiKey(secret)));
}

/**
 * The same, by the key's id (a chat socket opened with a key reads its account again by it when
 * its rights change, without keeping the secret).
 */
export async function actorForApiKeyId(db: Db, keyId: string, userId: string): Promise<HumanActor | AiActor | null> {
  return actorForKeyWhere(db, and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId))!);
}

async function actorForKeyWhere(db: Db, which: SQL): Promise<HumanActor | AiActor | null> {
  const [row] = await db
    .select({ ...actorColumns, keyId: apiKeys.id, keyTier: apiKeys.rateTier, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(sellerProfiles, eq(sellerProfiles.userId, users.id))
    .leftJoin(guardians, eq(guardians.id, users.guardianId))
    .leftJoin(guardianProfiles, eq(guardianProfiles.userId, users.guardianId))
    .where(and(which, isNull(apiKeys.revokedAt), eq(users.disabled, false)))
    .limit(1);
  if (!row) return null;
  const actor = await actorFromRow(db, row, { id: row.keyId, via: "api_key" }, row.keyTier === "unlimited" ? "unlimited" : undefined);
  if (actor && (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)) await touch(db, row.keyId);
  return actor;
}

async function touch(db: Db, keyId: string): Promise<void> {
  const now = new Date();
  // The condition repeats the check so concurrent requests (or instances) write at most once.
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - TOUCH_INTERVAL_MS)))));
}
