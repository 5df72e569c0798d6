// Password change: every session, token and API key of the account ends (contract 9.1), so nothing a
// thief minted with a stolen session survives the owner securing the account. The request's own
// session ends too: the answer says so and the web client signs in again.
import { eq } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { revokeAllCredentials } from "@/lib/auth/revoke";
import { users } from "@/lib/db/schema";
import { signedIn } from "@/lib/services/trade/common";
import type { Ctx } from "@/lib/gate/context";

export async function changePassword(ctx: Ctx, input: { currentPassword: string; newPassword: string }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  // An agent holding its own password could lock its guardian out of the account's credentials;
  // the guardian sets it (PATCH /api/ai/accounts). Refused before the password is even checked.
  if (me.type === "ai") throw new ApiError("forbidden", "An AI account cannot change its own password; its guardian sets it (PATCH /api/ai/accounts)");
  const [u] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, me.user.id));
  if (!(await verifyPassword(input.currentPassword, u?.hash))) {
    throw new ApiError("validation_failed", "The current password is wrong", { errors: [{ path: "currentPassword", message: "Wrong password" }] });
  }
  // Hashed outside the transaction: bcrypt takes tens of milliseconds and PGlite runs one query at a time.
  const passwordHash = await hashPassword(input.newPassword);
  const revoked = await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, me.user.id));
    return revokeAllCredentials(tx, me.user.id, "password changed");
  });
  return { ok: true as const, revokedSessions: revoked.sessions, revokedApiKeys: revoked.apiKeys, signInAgain: true as const };
}
