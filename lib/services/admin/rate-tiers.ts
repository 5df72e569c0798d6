// ADMIN-granted rate tiers (contract 6): an account's tier covers its sessions and keys; a key's
// own `unlimited` lifts only that key. Takes effect on the next request (actors are resolved per request).
import { eq } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { Db } from "@/lib/db/client";
import { apiKeys, users } from "@/lib/db/schema";

type Tier = "standard" | "unlimited";

export async function setRateTier(db: Db, input: { userId?: string; apiKeyId?: string; tier: Tier }) {
  if (input.userId !== undefined) {
    const [row] = await db.update(users).set({ rateTier: input.tier, updatedAt: new Date() }).where(eq(users.id, input.userId)).returning({ id: users.id });
    if (!row) throw notFound("User");
    return { userId: row.id, tier: input.tier };
  }
  const [row] = await db.update(apiKeys).set({ rateTier: input.tier }).where(eq(apiKeys.id, input.apiKeyId!)).returning({ id: apiKeys.id });
  if (!row) throw notFound("API key");
  return { apiKeyId: row.id, tier: input.tier };
}
