// AI agent accounts (spec 2.1, contract 3): `<guardian>_AI_BUYER` / `<guardian>_AI_SELLER`, one per
// role per guardian, sharing the guardian's e-mail; the guardian sets permissions and the mandate,
// sets a new password, disables (every credential revoked at once) and re-enables them.
import { and, eq, inArray } from "drizzle-orm";
import { defaultPermissions, isPermission, PERMISSION_NAMES, type AiRole, type PermissionMap } from "@/lib/ai/permissions";
import { ApiError, notFound } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password";
import { revokeAllCredentials } from "@/lib/auth/revoke";
import type { Db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { aiPermissions, aiSettings, sellerProfiles, users } from "@/lib/db/schema";
import { BASE_CURRENCY, loadRates } from "@/lib/money/convert";
import { publishActorChanged } from "@/lib/realtime/events";

export type AiAccountView = {
  aiUserId: string;
  username: string;
  role: AiRole;
  disabled: boolean;
  permissions: PermissionMap;
  /** The currency of the mandate's amounts (contract 9.2). */
  mandateCurrency: string;
  orderApprovalThreshold: number;
  maxDiscountPercent: number;
  monthlyBudget: number | null;
  createdAt: string;
};

export function aiUsername(guardianUsername: string, role: AiRole): string {
  return `${guardianUsername}_${role}`;
}

export async function createAiAccountRecord(db: Db, guardianId: string, role: AiRole, password: string): Promise<AiAccountView> {
  const passwordHash = await hashPassword(password);
  try {
    const id = await db.transaction(async (tx) => {
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
      if (existing) throw aiExists(role);
      const [ai] = await tx
        .insert(users)
        .values({ email: guardian.email, username: aiUsername(guardian.username, role), passwordHash, role, guardianId })
        .returning({ id: users.id });
      await tx.insert(aiSettings).values({ aiUserId: ai!.id });
      const defaults = defaultPermissions(role);
      await tx.insert(aiPermissions).values(PERMISSION_NAMES.map((permission) => ({ aiUserId: ai!.id, permission, isAllowed: defaults[permission] })));
      return ai!.id;
    });
    return (await getAiAccount(db, guardianId, id))!;
  } catch (err) {
    if (isUniqueViolation(err)) throw aiExists(role);
    throw err;
  }
}

const aiExists = (role: AiRole) => new ApiError("ai_account_exists", `This guardian already has an ${role} account`);

export async function listAiAccounts(db: Db, guardianId: string, only?: string): Promise<AiAccountView[]> {
  const rows = await db
    .select({ user: users, settings: aiSettings })
    .from(users)
    .innerJoin(aiSettings, eq(aiSettings.aiUserId, users.id))
    .where(only ? and(eq(users.guardianId, guardianId), eq(users.id, only)) : eq(users.guardianId, guardianId))
    .orderBy(users.role);
  if (rows.length === 0) return [];
  const perms = await db
    .select()
    .from(aiPermissions)
    .where(
      inArray(
        aiPermissions.aiUserId,
        rows.map((r) => r.user.id),
      ),
    );
  return rows.map(({ user, settings }) => {
    const role = user.role as AiRole;
    const permissions = defaultPermissions(role);
    for (const p of perms) if (p.aiUserId === user.id && isPermission(p.permission)) permissions[p.permission] = p.isAllowed;
    return {
      aiUserId: user.id,
      username: user.username,
      role,
      disabled: user.disabled,
      permissions,
      mandateCurrency: settings.mandateCurrency,
      orderApprovalThreshold: Number(settings.orderApprovalThreshold),
      maxDiscountPercent: Number(settings.maxDiscountPercent),
      monthlyBudget: settings.monthlyBudget === null ? null : Number(settings.monthlyBudget),
      createdAt: user.createdAt.toISOString(),
    };
  });
}

/** One AI account of this guardian, or null (another guardian's account is not found either). */
export async function getAiAccount(db: Db, guardianId: string, aiUserId: string): Promise<AiAccountView | null> {
  return (await listAiAccounts(db, guardianId, aiUserId))[0] ?? null;
}

async function requireOwn(db: Db, guardianId: string, aiUserId: string): Promise<AiAccountView> {
  const account = await getAiAccount(db, guardianId, aiUserId);
  if (!account) throw notFound("AI account");
  return account;
}

export type AiAccountPatch = {
  aiUserId: string;
  disabled?: boolean;
  mandateCurrency?: string;
  orderApprovalThreshold?: number;
  maxDiscountPercent?: number;
  monthlyBudget?: number | null;
  /** A new password: the agent's sessions, tokens and API keys all end (contract 9.1). */
  password?: string;
};

export async function updateAiAccount(db: Db, guardianId: string, patch: AiAccountPatch): Promise<AiAccountView> {
  const account = await requireOwn(db, guardianId, patch.aiUserId);
  if (patch.monthlyBudget !== undefined && patch.monthlyBudget !== null && account.role !== "AI_BUYER") {
    throw new ApiError("validation_failed", "monthlyBudget applies to AI_BUYER accounts only", {
      errors: [{ path: "monthlyBudget", message: "AI_BUYER only" }],
    });
  }
  if (patch.mandateCurrency !== undefined) await assertHasRate(db, patch.mandateCurrency);
  // Hashed before the transaction: bcrypt is slow and PGlite runs one query at a time.
  const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
  await db.transaction(async (tx) => {
    const settings: Partial<typeof aiSettings.$inferInsert> = {};
    if (patch.mandateCurrency !== undefined) settings.mandateCurrency = patch.mandateCurrency;
    if (patch.orderApprovalThreshold !== undefined) settings.orderApprovalThreshold = patch.orderApprovalThreshold.toFixed(2);
    if (patch.maxDiscountPercent !== undefined) settings.maxDiscountPercent = patch.maxDiscountPercent.toFixed(2);
    if (patch.monthlyBudget !== undefined) settings.monthlyBudget = patch.monthlyBudget === null ? null : patch.monthlyBudget.toFixed(2);
    if (Object.keys(settings).length)
      await tx
        .update(aiSettings)
        .set({ ...settings, updatedAt: new Date() })
        .where(eq(aiSettings.aiUserId, account.aiUserId));
    if (passwordHash !== undefined) {
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, account.aiUserId));
      await revokeAllCredentials(tx, account.aiUserId, "password set by guardian");
    }
    if (patch.disabled !== undefined && patch.disabled !== account.disabled) await setDisabled(tx, account.aiUserId, patch.disabled);
  });
  return (await getAiAccount(db, guardianId, account.aiUserId))!;
}

/** A mandate in a currency without a reference rate could not be checked at all: refused up front. */
async function assertHasRate(db: Db, currency: string) {
  if (currency === BASE_CURRENCY || (await loadRates(db, [currency])).has(currency)) return;
  const message = `No reference exchange rate for ${currency}; choose a currency listed at GET /api/fx-rates`;
  throw new ApiError("validation_failed", message, { errors: [{ path: "mandateCurrency", message }] });
}

export async function disableAiAccount(db: Db, guardianId: string, aiUserId: string): Promise<AiAccountView> {
  return updateAiAccount(db, guardianId, { aiUserId, disabled: true });
}

/**
 * Disabling revokes every session, token and API key of the account (its sockets close with
 * 4401); re-enabling brings none of them back, so a leaked credential stays dead.
 */
async function setDisabled(db: Db, aiUserId: string, disabled: boolean) {
  await db.update(users).set({ disabled, updatedAt: new Date() }).where(eq(users.id, aiUserId));
  if (!disabled) return;
  await revokeAllCredentials(db, aiUserId, "disabled by guardian");
}

export async function setPermission(db: Db, guardianId: string, aiUserId: string, permission: string, isAllowed: boolean): Promise<AiAccountView> {
  if (!isPermission(permission)) {
    throw new ApiError("validation_failed", `Unknown permission "${permission}"`, {
      errors: [{ path: "permission", message: `One of: ${PERMISSION_NAMES.join(", ")}` }],
    });
  }
  const account = await requireOwn(db, guardianId, aiUserId);
  await db
    .insert(aiPermissions)
    .values({ aiUserId: account.aiUserId, permission, isAllowed })
    .onConflictDoUpdate({ target: [aiPermissions.aiUserId, aiPermissions.permission], set: { isAllowed, updatedAt: new Date() } });
  // Open chat sockets hold the account's permissions (contract 9.1: a change counts at once).
  await publishActorChanged(db, account.aiUserId);
  return (await getAiAccount(db, guardianId, aiUserId))!;
}
