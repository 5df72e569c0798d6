// Password change: every session and token of the account ends (contract 2), so a stolen session
// does not survive the owner securing the account.
import { eq } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { Actor } from "@/lib/auth/actor";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { revokeUserSessions } from "@/lib/auth/sessions";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { signedIn } from "@/lib/services/trade/common";

export async function changePassword(db: Db, actor: Actor, input: { currentPassword: string; newPassword: string }) {
  const me = signedIn(actor);
  const [u] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, me.user.id));
  if (!(await verifyPassword(input.currentPassword, u?.hash))) {
    throw new ApiError("validation_failed", "The current password is wrong", { errors: [{ path: "currentPassword", message: "Wrong password" }] });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, me.user.id));
  const revoked = await revokeUserSessions(db, me.user.id, "password changed");
  return { ok: true as const, revokedSessions: revoked };
}
