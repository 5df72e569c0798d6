// The guardian's mandate in real money, buyer side (contract 9.2): an AI_BUYER's order or task reward
// is compared, converted to the mandate currency at the reference rates, with the threshold per
// order, with the 24-hour total to the same store (so splitting does not get around it) and with the
// calendar month's spend across stores (so switching currencies does not either). All sums are
// integer cents; the rates are read once per check.
import { and, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { AiActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { aiSettings, orders, tasks } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import { BASE_CURRENCY, convertCents, formatCents, loadRates, toCents, type RateTable } from "@/lib/money/convert";
import type { RuleCtx } from "./conduct";

export type Mandate = {
  mandateCurrency: string;
  orderApprovalThreshold: string;
  maxDiscountPercent: string;
  monthlyBudget: string | null;
};

const DEFAULT_MANDATE: Mandate = { mandateCurrency: BASE_CURRENCY, orderApprovalThreshold: "5000.00", maxDiscountPercent: "10.00", monthlyBudget: null };

/**
 * The mandate of an AI account. `lock` takes the settings row for update, so two checks of one agent
 * run one after the other inside their transactions (else two orders could each see the other unplaced).
 */
export async function aiMandate(db: Db, aiUserId: string, lock = false): Promise<Mandate> {
  const q = db
    .select({
      mandateCurrency: aiSettings.mandateCurrency,
      orderApprovalThreshold: aiSettings.orderApprovalThreshold,
      maxDiscountPercent: aiSettings.maxDiscountPercent,
      monthlyBudget: aiSettings.monthlyBudget,
    })
    .from(aiSettings)
    .where(eq(aiSettings.aiUserId, aiUserId));
  const [row] = lock ? await q.for("update") : await q;
  return row ?? DEFAULT_MANDATE;
}

/** What counts as spent: everything not cancelled, rejected or expired (held items included). */
const COUNTED_ORDERS = ["pending_guardian_approval", "placed", "confirmed", "fulfilled"] as const;
const COUNTED_TASKS = ["pending_guardian_approval", "open", "claimed", "completed"] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export type MandateHold = {
  /** Which limit: the order alone, the 24-hour total to its store, or the month's budget. */
  limit: "threshold" | "store24h" | "monthlyBudget";
  /** The guardian-facing explanation, naming the original and the converted amounts. */
  rule: string;
  /** The figures of the rule (decimal amounts, currency codes) for a translated text. */
  params: Record<string, string>;
  /** The item's total converted to the mandate currency (two-place decimal). */
  convertedTotal: string;
  mandateCurrency: string;
};

/** The calendar month (UTC) that `now` falls in starts here. */
export const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * Why an AI_BUYER's order (with `storeId`) or task reward (without) needs its guardian, or null when
 * it may go ahead. `now` is the moment the item is created at (its createdAt).
 */
export async function buyerMandateRule(
  ctx: RuleCtx<AiActor>,
  item: { total: number | string; currency: string; storeId?: string },
  now = new Date(),
): Promise<MandateHold | null> {
  const { db, actor } = ctx;
  const m = await aiMandate(db, actor.user.id, true);
  const mc = m.mandateCurrency;
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const since = monthStart(now) < dayAgo ? monthStart(now) : dayAgo;
  const inMonth = sql`${orders.createdAt} >= ${monthStart(now).toISOString()}`;
  const sameStore24h = item.storeId ? sql`${orders.sellerId} = ${item.storeId} and ${orders.createdAt} > ${dayAgo.toISOString()}` : sql`false`;
  const [orderSums, taskSums] = await Promise.all([
    db
      .select({
        currency: orders.currency,
        month: sql<string | null>`sum(${orders.total}) filter (where ${inMonth})`,
        store24h: sql<string | null>`sum(${orders.total}) filter (where ${sameStore24h})`,
      })
      .from(orders)
      .where(and(eq(orders.buyerId, actor.user.id), inArray(orders.status, [...COUNTED_ORDERS]), gte(orders.createdAt, since)))
      .groupBy(orders.currency),
    m.monthlyBudget === null
      ? Promise.resolve([])
      : db
          .select({ currency: sql<string>`coalesce(${tasks.currency}, ${BASE_CURRENCY})`, month: sql<string | null>`sum(${tasks.reward})` })
          .from(tasks)
          .where(
            and(eq(tasks.createdBy, actor.user.id), isNotNull(tasks.reward), inArray(tasks.status, [...COUNTED_TASKS]), gte(tasks.createdAt, monthStart(now))),
          )
          .groupBy(tasks.currency),
  ]);
  const rates = await loadRates(db, [mc, item.currency, ...orderSums.map((r) => r.currency), ...taskSums.map((r) => r.currency)]);
  const conv = (amount: string | number, currency: string, field: string) =>
    convertCents(requireRate(rates, currency, mc, field), toCents(amount), currency, mc, field);

  const cents = conv(item.total, item.currency, "currency");
  const original = `${formatCents(toCents(item.total))} ${item.currency}`;
  const converted = `${formatCents(cents)} ${mc}`;
  const both = item.currency === mc ? original : `${original} (${converted})`;
  const hold = (limit: MandateHold["limit"], rule: string, sum = cents, cap = threshold): MandateHold => ({
    limit,
    rule,
    params: {
      total: formatCents(toCents(item.total)),
      currency: item.currency,
      converted: formatCents(cents),
      sum: formatCents(sum),
      limit: formatCents(cap),
      mandateCurrency: mc,
    },
    convertedTotal: formatCents(cents),
    mandateCurrency: mc,
  });
  const threshold = toCents(m.orderApprovalThreshold);
  const limitText = `${formatCents(threshold)} ${mc}`;

  if (cents > threshold) return hold("threshold", `total ${both} exceeds the approval threshold of ${limitText}`);
  if (item.storeId) {
    let store = cents;
    for (const r of orderSums) if (r.store24h !== null) store += conv(r.store24h, r.currency, "currency");
    if (store > threshold) {
      return hold(
        "store24h",
        `total ${both} with this agent's other orders to the same store in the last 24 hours comes to ${formatCents(store)} ${mc}, past the approval threshold of ${limitText}`,
        store,
      );
    }
  }
  if (m.monthlyBudget !== null) {
    let month = cents;
    for (const r of [...orderSums, ...taskSums]) if (r.month !== null) month += conv(r.month, r.currency, "currency");
    const budget = toCents(m.monthlyBudget);
    if (month > budget) {
      return hold(
        "monthlyBudget",
        `total ${both} would bring this month's spend to ${formatCents(month)} ${mc}, past the monthly budget of ${formatCents(budget)} ${mc}`,
        month,
        budget,
      );
    }
  }
  return null;
}

/** A currency without a reference rate cannot be weighed against the mandate: refused, saying why. */
export function requireRate(rates: RateTable, currency: string, mandateCurrency: string, field: string): RateTable {
  for (const [code, path] of [
    [currency, field],
    [mandateCurrency, "mandateCurrency"],
  ] as const) {
    if (code !== BASE_CURRENCY && !rates.has(code)) {
      const message = `No reference exchange rate for ${code}, so the guardian's mandate (in ${mandateCurrency}) cannot be checked; an administrator sets one at PUT /api/admin/fx-rates`;
      throw new ApiError("validation_failed", message, { errors: [{ path, message }] });
    }
  }
  return rates;
}
