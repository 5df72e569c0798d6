// AI account records (spec 2.1): `<guardian>_AI_BUYER` / `<guardian>_AI_SELLER`, sharing the
// guardian's e-mail, with default permissions and thresholds. The guardian endpoints build on this.
import { and, eq, inArray } from "drizzle-orm";
import { defaultPermissions, isPermission, PERMISSION_NAMES, type AiRole } from "@/lib/ai/permissions";
import { ApiError, notFound } from "@/lib/api/errors";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { aiPermissions, aiSettings, sellerProfiles, users } from "@/lib/db/schema";

export function aiUsername(guardianUsername: string, role: AiRole): string {
  return `${guardianUsername}_${role}`;
}

export async function createAiAccountRecord(db: Db, guardianId: string, role: AiRole, password: string) {
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      const [guardian] = await tx.select().from(users).where(eq(users.id, guardianId)).limit(1);
      if (!guardian || guardian.guardianId) throw notFound("Guardian");
      if (guardian.role === "AI_BUYER" || guardian.role === "AI_SELLER") throw new ApiError("forbidden", "AI accounts cannot create AI accounts");
      if (role === "AI_SELLER") {
        const [profile] = await tx.select({ id: sellerProfiles.id }).from(sellerProfiles).where(eq(sellerProfiles.userId, guardianId)).limit(1);
        if (!profile) throw new ApiError("seller_profile_required", "An AI_SELLER needs a guardian with a seller profile (store)");
      }
      const [existing] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.guardianId, guardianId), eq(users.role, role)))
        .limit(1);
      if (existing) throw new ApiError("ai_account_exists", `This guardian already has an ${role} account`);
      const [ai] = await tx
        .insert(users)
        .values({ email: guardian.email, username: aiUsername(guardian.username, role), passwordHash, role, guardianId })
        .returning();
      await tx.insert(aiSettings).values({ aiUserId: ai!.id });
      const defaults = defaultPermissions(role);
      await tx.insert(aiPermissions).values(PERMISSION_NAMES.map((permission) => ({ aiUserId: ai!.id, permission, isAllowed: defaults[permission] })));
      return { aiUserId: ai!.id, username: ai!.username, role, disabled: false, permissions: defaults };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("ai_account_exists", `This guardian already has an ${role} account`);
    throw err;
  }
}

export async function listAiAccounts(db: Db, guardianId: string) {
  const accounts = await db.select().from(users).where(eq(users.guardianId, guardianId)).orderBy(users.role);
  if (accounts.length === 0) return [];
  const perms = await db
    .select()
    .from(aiPermissions)
    .where(inArray(aiPermissions.aiUserId, accounts.map((a) => a.id)));
  return accounts.map((a) => {
    const role = a.role as AiRole;
    const permissions = defaultPermissions(role);
    for (const p of perms) if (p.aiUserId === a.id && isPermission(p.permission)) permissions[p.permission] = p.isAllowed;
    return { aiUserId: a.id, username: a.username, role, disabled: a.disabled, permissions };
  });
}
