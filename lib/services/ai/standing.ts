// An AI account's own standing (contract 9.2, GET /api/ai/me and the MCP tool get_my_mandate): who it
// is, whom it answers to, what it may do, its mandate, what it has spent against it and what waits for
// its guardian, so an agent can plan instead of learning the rules by refusal. The spend is the mandate
// rule's own sum (./mandate.ts `sumSpend`), so what the agent reads is what the rule will weigh.
import { and, count, eq, inArray } from "drizzle-orm";
import type { AiActor } from "@/lib/auth/actor";
import { approvals, sellerProfiles } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";
import type { Ctx } from "@/lib/gate/context";
import { formatCents, toCents } from "@/lib/money/convert";
import { getAiAccount } from "./accounts";
import { listApprovals } from "./approvals";
import { monthStart, sumSpend } from "./mandate";

/** How many of the agent's approvals the standing lists (the rest: GET /api/ai/approvals). */
export const STANDING_APPROVALS = 20;

const money = (cents: bigint) => Number(formatCents(cents));
/** What is left before a limit, never below zero (held items count, so a total may pass its limit). */
const left = (limit: bigint, used: bigint) => money(limit > used ? limit - used : 0n);

export async function aiStanding(ctx: Pick<Ctx<AiActor>, "db" | "actor">, now = new Date()) {
  const { db, actor } = ctx;
  const account = await getAiAccount(db, actor.guardian.id, actor.user.id);
  if (!account) throw notFound("AI account");
  const mc = account.mandateCurrency;
  // Task rewards count for the month whether or not a budget is set: the agent sees all it spent.
  const spend = await sumSpend(db, account.aiUserId, mc, now, { tasks: true });
  const threshold = toCents(account.orderApprovalThreshold);
  const budget = account.monthlyBudget === null ? null : toCents(account.monthlyBudget);

  const storeIds = [...spend.store24hCents.keys()];
  const names = storeIds.length
    ? await db.select({ id: sellerProfiles.id, companyName: sellerProfiles.companyName }).from(sellerProfiles).where(inArray(sellerProfiles.id, storeIds))
    : [];
  const companyName = new Map(names.map((n) => [n.id, n.companyName]));
  const last24hByStore = [...spend.store24hCents]
    .sort(([a, x], [b, y]) => (x === y ? a.localeCompare(b) : x > y ? -1 : 1))
    .map(([storeId, cents]) => ({
      storeId,
      companyName: companyName.get(storeId) ?? "",
      total: money(cents),
      remainingBeforeApproval: left(threshold, cents),
    }));

  const recent = await listApprovals(db, actor.guardian.id, { aiUserId: account.aiUserId, page: 1, limit: STANDING_APPROVALS });
  const [pending] = await db
    .select({ n: count() })
    .from(approvals)
    // The guardian's pending approvals (an index), of them this account's: not every pending one of the site.
    .where(and(eq(approvals.guardianId, actor.guardian.id), eq(approvals.status, "pending"), eq(approvals.aiUserId, account.aiUserId)));

  return {
    account: { aiUserId: account.aiUserId, username: account.username, role: account.role, disabled: account.disabled },
    guardian: { id: actor.guardian.id, username: actor.guardian.username },
    permissions: account.permissions,
    mandate: {
      mandateCurrency: mc,
      orderApprovalThreshold: account.orderApprovalThreshold,
      monthlyBudget: account.monthlyBudget,
      maxDiscountPercent: account.maxDiscountPercent,
    },
    spend: {
      currency: mc,
      month: {
        from: monthStart(now).toISOString(),
        total: money(spend.monthCents),
        remaining: budget === null ? null : left(budget, spend.monthCents),
      },
      last24hByStore,
      unconverted: spend.unconverted
        .filter((u) => u.monthCents !== 0n)
        .map((u) => ({ currency: u.currency, total: money(u.monthCents) }))
        .sort((a, b) => a.currency.localeCompare(b.currency)),
    },
    approvals: { pending: Number(pending?.n ?? 0), items: recent.approvals },
  };
}
