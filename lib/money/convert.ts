// Conversion at the platform's current reference rates (contract 9.2), exact to the cent (the
// arithmetic is ./decimal.ts). Every mandate rule converts through `convert`, or reads the rates once
// with `loadRates` and converts many amounts with `convertWith`.
import { desc, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { fxRates } from "@/lib/db/schema";
import type { Ctx } from "@/lib/gate/context";
import { BASE_CURRENCY, convertWith, formatCents, toCents } from "./decimal";

export { BASE_CURRENCY, convertCents, convertWith, formatCents, toCents, type RateTable } from "./decimal";

/**
 * `amount` (number or decimal string, at most two decimals) of currency `from` in currency `to` at
 * the current reference rates, as a two-place decimal string ("590.49"). A currency without a rate
 * is 400 `validation_failed` naming `field` (the caller's field the currency came from).
 */
export async function convert(on: Ctx | Db, amount: number | string, from: string, to: string, field = "currency"): Promise<string> {
  if (from === to) return formatCents(toCents(amount));
  return convertWith(await loadRates(dbOf(on), [from, to]), amount, from, to, field);
}

/**
 * The current rate of each currency (of `only`, or all): the one with the latest date, and of
 * those the last set. USD is always 1. One query, for callers that convert many amounts.
 */
export async function loadRates(db: Db, only?: readonly string[]): Promise<Map<string, string>> {
  const rows = await currentRates(db, only);
  const map = new Map<string, string>([[BASE_CURRENCY, "1"]]);
  for (const r of rows) if (r.currency !== BASE_CURRENCY) map.set(r.currency, r.perUsd);
  return map;
}

/** The current row per currency (see loadRates), with its date. */
export function currentRates(db: Db, only?: readonly string[]) {
  const q = db
    .selectDistinctOn([fxRates.currency], { currency: fxRates.currency, perUsd: fxRates.perUsd, rateDate: fxRates.rateDate })
    .from(fxRates)
    .$dynamic();
  const filtered = only ? q.where(inArray(fxRates.currency, [...new Set(only)])) : q;
  return filtered.orderBy(fxRates.currency, desc(fxRates.rateDate), desc(fxRates.setAt));
}

/**
 * The same current rate inside SQL, for comparisons the database makes (the requirements board's
 * budget bounds): USD is 1, otherwise the row with the latest date and of those the last set.
 */
export function currentRateSql(currency: unknown): SQL {
  return sql`(case when ${currency} = ${BASE_CURRENCY} then 1 else (select f.per_usd from ${fxRates} f where f.currency = ${currency} order by f.rate_date desc, f.set_at desc limit 1) end)`;
}

const dbOf = (on: Ctx | Db): Db => ("actor" in on && "requestId" in on ? on.db : (on as Db));
