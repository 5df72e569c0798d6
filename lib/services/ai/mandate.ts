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

/** Spend in one currency without a reference rate (or against a mandate currency without one). */
export type UnconvertedSpend = { currency: string; monthCents: bigint; last24hByStore: Map<string, bigint> };

export type Spend = {
  /** The calendar month's (UTC) counted orders (and, when asked for, task rewards), in mandate-currency cents. */
  monthCents: bigint;
  /** Counted orders of the last 24 hours by store (seller profile id), in mandate-currency cents. */
  store24hCents: Map<string, bigint>;
  /** What could not be converted, left out of the totals above. */
  unconverted: UnconvertedSpend[];
  /** The rates the totals were converted at (with `currencies` of the call), for converting more. */
  rates: RateTable;
};

/**
 * What an agent has spent by `now`, in its mandate currency: the one sum behind the mandate rule and
 * the agent's own standing (GET /api/ai/me), so the two can never disagree. Windows: the calendar month
 * in UTC (from its first instant) and the 24 hours before `now` (exclusive). `tasks` adds task rewards
 * to the month (they have no store). `currencies` are loaded with the rates for the caller's own use.
 */
export async function sumSpend(
  db: Db,
  aiUserId: string,
  mandateCurrency: string,
  now: Date,
  opts: { tasks: boolean; currencies?: readonly string[] },
): Promise<Spend> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const month = monthStart(now);
  const since = month < dayAgo ? month : dayAgo;
  const [orderSums, taskRows] = await Promise.all([
    db
      .select({
        currency: orders.currency,
        storeId: orders.sellerId,
        month: sql<string | null>`sum(${orders.total}) filter (where ${orders.createdAt} >= ${month.toISOString()})`,
        last24h: sql<string | null>`sum(${orders.total}) filter (where ${orders.createdAt} > ${dayAgo.toISOString()})`,
      })
      .from(orders)
      .where(and(eq(orders.buyerId, aiUserId), inArray(orders.status, [...COUNTED_ORDERS]), gte(orders.createdAt, since)))
      .groupBy(orders.currency, orders.sellerId),
    opts.tasks
      ? db
          .select({ currency: tasks.currency, month: sql<string | null>`sum(${tasks.reward})` })
          .from(tasks)
          .where(and(eq(tasks.createdBy, aiUserId), isNotNull(tasks.reward), inArray(tasks.status, [...COUNTED_TASKS]), gte(tasks.createdAt, month)))
          .groupBy(tasks.currency)
      : Promise.resolve([]),
  ]);
  // A reward without a currency is in the base currency (as the task's own view shows it).
  const taskSums = taskRows.map((r) => ({ currency: r.currency ?? BASE_CURRENCY, month: r.month }));
  const currencies = [...new Set([...orderSums.map((r) => r.currency), ...taskSums.map((r) => r.currency)])];
  const rates = await loadRates(db, [mandateCurrency, ...(opts.currencies ?? []), ...currencies]);
  const rated = (c: string) => c === mandateCurrency || (rates.has(c) && rates.has(mandateCurrency));
  const spend: Spend = { monthCents: 0n, store24hCents: new Map(), unconverted: [], rates };
  // Each currency's month is summed in its own cents and converted once (one rounding per currency).
  for (const currency of currencies) {
    const monthCents = [...orderSums, ...taskSums]
      .filter((r) => r.currency === currency)
      .reduce((acc, r) => acc + (r.month === null ? 0n : toCents(r.month)), 0n);
    const last24hByStore = new Map<string, bigint>();
    for (const r of orderSums) if (r.currency === currency && r.last24h !== null) last24hByStore.set(r.storeId, toCents(r.last24h));
    if (!rated(currency)) {
      spend.unconverted.push({ currency, monthCents, last24hByStore });
      continue;
    }
    spend.monthCents += convertCents(rates, monthCents, currency, mandateCurrency);
    for (const [store, cents] of last24hByStore) {
      spend.store24hCents.set(store, (spend.store24hCents.get(store) ?? 0n) + convertCents(rates, cents, currency, mandateCurrency));
    }
  }
  return spend;
}

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
  const spend = await sumSpend(db, actor.user.id, mc, now, { tasks: m.monthlyBudget !== null, currencies: [item.currency] });
  const cents = convertCents(requireRate(spend.rates, item.currency, mc, "currency"), toCents(item.total), item.currency, mc, "currency");
  // History that cannot be converted is refused only where a limit would weigh it.
  for (const u of spend.unconverted) {
    if ((item.storeId && u.last24hByStore.has(item.storeId)) || (m.monthlyBudget !== null && u.monthCents !== 0n)) {
      requireRate(spend.rates, u.currency, mc, "currency");
    }
  }

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
    const store = cents + (spend.store24hCents.get(item.storeId) ?? 0n);
    if (store > threshold) {
      return hold(
        "store24h",
        `total ${both} with this agent's other orders to the same store in the last 24 hours comes to ${formatCents(store)} ${mc}, past the approval threshold of ${limitText}`,
        store,
      );
    }
  }
  if (m.monthlyBudget !== null) {
    const month = cents + spend.monthCents;
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
