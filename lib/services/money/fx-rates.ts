// The platform's reference exchange rates (contract 9.2): read by anyone, set by an ADMIN. Setting
// adds dated rows (lib/db/schema/money.ts), so every earlier rate stays on record with who set it.
import type { Db } from "@/lib/db/client";
import { fxRates } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import type { Ctx } from "@/lib/gate/context";
import { BASE_CURRENCY, currentRates } from "@/lib/money/convert";
import type { SetFxRatesInput } from "@/lib/schemas/money";

export type FxRatesView = { base: "USD"; date: string; rates: Record<string, number>; dates: Record<string, string> };

/** The current rate of every currency that has one, base USD (always 1). */
export async function getFxRates(db: Db): Promise<FxRatesView> {
  const rows = (await currentRates(db)).filter((r) => r.currency !== BASE_CURRENCY);
  const date = rows.reduce((latest, r) => (r.rateDate > latest ? r.rateDate : latest), "0000-00-00");
  const view: FxRatesView = { base: BASE_CURRENCY, date: rows.length ? date : today(), rates: { USD: 1 }, dates: {} };
  view.dates.USD = view.date;
  for (const r of rows) {
    view.rates[r.currency] = Number(r.perUsd);
    view.dates[r.currency] = r.rateDate;
  }
  return view;
}

/**
 * Set the rates of the listed currencies as of `date` (the others keep theirs). A date after
 * tomorrow (UTC) is refused: a rate cannot be known before its day, and a day's slack covers zones.
 */
export async function setFxRates(ctx: Ctx, input: SetFxRatesInput): Promise<FxRatesView> {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  if (input.date > tomorrow) {
    throw new ApiError("validation_failed", "The rates' date is in the future", { errors: [{ path: "date", message: "Not after today" }] });
  }
  const setBy = ctx.actor.type === "human" ? ctx.actor.user.id : null;
  const rows = Object.entries(input.rates)
    .filter(([currency]) => currency !== BASE_CURRENCY)
    .map(([currency, rate]) => ({ currency, perUsd: String(rate), rateDate: input.date, setBy }));
  if (rows.length > 0) await ctx.db.insert(fxRates).values(rows);
  return getFxRates(ctx.db);
}

const today = () => new Date().toISOString().slice(0, 10);
