// The route wrapper's AI rules for actions that do not arrive as HTTP requests (the chat socket):
// the permission check first, then the action and its audit row in one transaction, and refusals
// audited on their own with success false (contract 3).
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
  const entry = { aiUserId: actor.user.id, guardianId: actor.guardian.id, action: action.permission, ip: action.ip };
  try {
    if (!actor.permissions[action.permission]) throw new ApiError("permission_denied", `This AI account lacks the permission "${action.permission}"`);
    return await db.transaction(async (tx) => {
      const result = await fn(tx);
      await writeAudit(tx, { ...entry, success: true, details: action.details(result) });
      return result;
    });
  } catch (err) {
    const code = err instanceof ApiError ? err.code : "internal_error";
    const message = err instanceof ApiError ? err.message : "unexpected error";
    await writeAudit(db, { ...entry, success: false, details: `${code}: ${message}` }).catch((e: unknown) => console.error("audit write failed", e));
    throw err;
  }
}
