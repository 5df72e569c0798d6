// Ending every credential of an account at once: its sessions (cookie and Bearer) and its API keys.
// A password change or a guardian's reset must leave nothing minted with the old secret alive, and an
// API key is such a thing (contract 9.1): a key made from a stolen session would otherwise outlive it.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { revokeUserSessions } from "./sessions";

export type RevokedCredentials = { sessions: number; apiKeys: number };

/**
 * Revoke every live session and API key of `userId`. Its open chat sockets close (4401) through the
 * revocation event, which names the user, so sockets opened with a key close as well.
 */
export async function revokeAllCredentials(db: Db, userId: string, reason: string): Promise<RevokedCredentials> {
  const sessions = await revokeUserSessions(db, userId, reason);
  const keys = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return { sessions, apiKeys: keys.length };
}
