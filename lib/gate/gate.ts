// The one gate an AI account's actions pass, whatever the channel (contract 9.1): REST and its
// aliases and MCP (through lib/api/route.ts), the chat socket, and the web pages (./pages.ts).
// The permission is checked first; a success's audit row commits in the action's transaction (the
// caller's); a refusal is audited on its own with success false; refusals by the rate tier are audited once per
// window (./rate-refusals.ts). Other accounts pass through untouched.
import { ApiError } from "@/lib/errors";
import type { Permission } from "@/lib/ai/permissions";
import type { Actor, AiActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { writeAudit } from "@/lib/services/ai/audit";
import { RateLimitedError } from "@/lib/api/rate-limit";
import { auditRateRefusal } from "./rate-refusals";

/** The channels an action arrives by (`system`: the server's own calls); recorded with refusals so a guardian sees where they came from. */
export type Channel = "rest" | "mcp" | "socket" | "page" | "auth" | "system";

/**
 * What an action is to the gate: the permission an AI account needs (or `none`), the audit action
 * name (default: the permission), and whether it is audited at all (reading one's own session is not).
 */
export type Act = { permission: Permission | "none"; action?: string; audited?: boolean };

export const actionName = (act: Act): string => act.action ?? (act.permission === "none" ? "unknown" : act.permission);

/** The refusal of an AI account that lacks the act's permission (null when allowed, or not an AI account). */
export function permissionRefusal(actor: Actor, permission: Permission | "none"): ApiError | null {
  if (actor.type !== "ai" || permission === "none" || actor.permissions[permission]) return null;
  return new ApiError("permission_denied", `This AI account lacks the permission "${permission}"`);
}

/** The audit row of an answer (details say what was done). Nothing for other accounts or unaudited acts. */
export async function auditRecord(db: Db, actor: Actor, act: Act, ip: string, success: boolean, details: string): Promise<void> {
  if (actor.type !== "ai" || act.audited === false) return;
  await writeAudit(db, entry(actor, act, ip, success, details));
}

/**
 * The audit row of a refusal or failure. A refusal by the rate tier is one row per window with a
 * running count, not a row each: an agent cannot bury its actions under rows of its own refusals.
 */
export async function auditFailure(db: Db, actor: Actor, act: Act, ip: string, err: unknown): Promise<void> {
  if (actor.type !== "ai") return;
  if (err instanceof RateLimitedError) return auditRateRefusal(db, entry(actor, act, ip, false, ""), err);
  if (act.audited === false) return;
  const code = err instanceof ApiError ? err.code : "internal_error";
  const message = err instanceof ApiError ? err.message : "unexpected error";
  await writeAudit(db, entry(actor, act, ip, false, `${code}: ${message}`));
}

function entry(actor: AiActor, act: Act, ip: string, success: boolean, details: string) {
  return { aiUserId: actor.user.id, guardianId: actor.guardian.id, action: actionName(act), details, ip, success };
}

/** An act with where it came from and how a success reads in the log. */
export type AuditedAction<T> = Act & { ip: string; details: (result: T) => string };

/** The audit row of one outcome of an action: the success or the refusal (for callers that batch many actions). */
export function auditOutcome<T>(db: Db, actor: Actor, act: AuditedAction<T>, outcome: { result: T } | { error: unknown }): Promise<void> {
  if ("result" in outcome) return auditRecord(db, actor, act, act.ip, true, act.details(outcome.result));
  return auditFailure(db, actor, act, act.ip, outcome.error);
}
