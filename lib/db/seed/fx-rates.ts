// Reference data like the category tree: the built-in exchange rates, for each currency that has no
// rate yet (so a rate an administrator set is never overwritten, and a currency added to the list
// later is filled in on the next start).
import type { Db } from "../client";
import { fxRates } from "../schema";
import { SEED_FX_DATE, SEED_FX_RATES } from "./fx-rates-data";

export async function seedFxRates(db: Db): Promise<number> {
  const have = new Set((await db.selectDistinct({ currency: fxRates.currency }).from(fxRates)).map((r) => r.currency));
  const rows = Object.entries(SEED_FX_RATES)
    .filter(([currency]) => !have.has(currency))
    .map(([currency, perUsd]) => ({ currency, perUsd, rateDate: SEED_FX_DATE, setBy: null }));
  if (rows.length > 0) await db.insert(fxRates).values(rows);
  return rows.length;
}
