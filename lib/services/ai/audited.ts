// The route wrapper's AI rules for actions that do not arrive as HTTP requests (the chat socket):
// the permission check first, then the action and its audit row in one transaction, and refusals
// audited on their own with success false (contract 3). The gate and the row are also exported
// on their own for callers that run many actions in one transaction (the chat group commit).
import { ApiError } from "@/lib/api/errors";
import type { Permission } from "@/lib/ai/permissions";
import type { SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { writeAudit } from "./audit";

export type AuditedAction<T> = {
  permission: Permission;
  ip: string;
  /** The audit row's details for a success. */
  details: (result: T) => string;
};

export async function runAudited<T>(db: Db, actor: SignedInActor, action: AuditedAction<NoInfer<T>>, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (actor.type !== "ai") return fn(db);
  try {
    const refusal = permissionRefusal(actor, action.permission);
    if (refusal) throw refusal;
    return await db.transaction(async (tx) => {
      const result = await fn(tx);
      await auditOutcome(tx, actor, action, { result });
      return result;
    });
  } catch (err) {
    await auditOutcome(db, actor, action, { error: err }).catch((e: unknown) => console.error("audit write failed", e));
    throw err;
  }
}

/** The refusal of an AI account that lacks `permission` (null when allowed, or not an AI account). */
export function permissionRefusal(actor: SignedInActor, permission: Permission): ApiError | null {
  if (actor.type !== "ai" || actor.permissions[permission]) return null;
  return new ApiError("permission_denied", `This AI account lacks the permission "${permission}"`);
}

/** The audit row of one outcome of `action` by an AI account: the success or the refusal. Nothing for others. */
export async function auditOutcome<T>(db: Db, actor: SignedInActor, action: AuditedAction<T>, outcome: { result: T } | { error: unknown }): Promise<void> {
  if (actor.type !== "ai") return;
  const entry = {
    aiUserId: actor.user.id,
    guardianId: actor.guardian.id,
    action: action.permission,
    ip: action.ip,
  };
  if ("result" in outcome)
    return writeAudit(db, {
      ...entry,
      success: true,
      details: action.details(outcome.result),
    });
  const err = outcome.error;
  const code = err instanceof ApiError ? err.code : "internal_error";
  const message = err instanceof ApiError ? err.message : "unexpected error";
  return writeAudit(db, {
    ...entry,
    success: false,
    details: `${code}: ${message}`,
  });
}
