// Conduct rules the server enforces on AI accounts (contract 3): no self-trade with the sibling or
// the guardian's own store. The guardian's mandate in real money is ./mandate.ts (buyers) and
// ./price-mandate.ts (sellers).
import { eq } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import type { Actor } from "@/lib/auth/actor";
import { sellerProfiles, users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/gate/context";

/**
 * What a rule reads of the call: its database and its caller. The chat socket's group commit checks
 * each message of a group with its own sender inside the group's one transaction.
 */
export type RuleCtx<A extends Actor = Actor> = Pick<Ctx<A>, "db" | "actor">;

/**
 * Refuse (403 `self_trade_forbidden`) when an AI account would trade with its guardian, its
 * sibling AI account, or its guardian's store. Humans are not restricted by this rule.
 */
export async function assertNotSelfTrade(ctx: RuleCtx, counterparty: { userId?: string | null; sellerProfileId?: string | null }) {
  const { db, actor } = ctx;
  if (actor.type !== "ai") return;
  const guardianId = actor.guardian.id;
  const refuse = () =>
    new ApiError("self_trade_forbidden", "AI accounts may not trade with their guardian, their guardian's store or their sibling AI account");
  if (counterparty.sellerProfileId) {
    if (counterparty.sellerProfileId === actor.guardian.sellerProfileId) throw refuse();
    const [owner] = await db.select({ userId: sellerProfiles.userId }).from(sellerProfiles).where(eq(sellerProfiles.id, counterparty.sellerProfileId));
    if (owner?.userId === guardianId) throw refuse();
  }
  if (counterparty.userId) {
    if (counterparty.userId === guardianId || counterparty.userId === actor.user.id) throw refuse();
    const [other] = await db.select({ guardianId: users.guardianId }).from(users).where(eq(users.id, counterparty.userId));
    if (other?.guardianId === guardianId) throw refuse();
  }
}

/**
 * The other direction of self-trade (contract 9.1, tasks): a guardian may not take a task of one of
 * its own AI accounts (its agent would be paying its guardian).
 */
export async function assertNotOwnAgent(ctx: RuleCtx, counterpartyUserId: string) {
  const { db, actor } = ctx;
  if (actor.type !== "human") return;
  const [other] = await db.select({ guardianId: users.guardianId }).from(users).where(eq(users.id, counterpartyUserId));
  if (other?.guardianId === actor.user.id) {
    throw new ApiError("self_trade_forbidden", "A guardian may not trade with its own AI accounts");
  }
}
