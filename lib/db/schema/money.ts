// Reference exchange rates (contract 9.2): how many units of a currency one USD buys, dated. Rows are
// only added, never changed, so the table is also the history of who set which rate when; the
// current rate of a currency is its row with the latest date (and of those, the last set).
import { date, index, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { id, ts } from "./columns";

export const fxRates = pgTable(
  "fx_rates",
  {
    id: id(),
    currency: text("currency").notNull(),
    /** Units of `currency` per 1 USD, 8 decimals (IDR ~16,548, KWD ~0.31). */
    perUsd: numeric("per_usd", { precision: 20, scale: 8 }).notNull(),
    /** The day the rate refers to (YYYY-MM-DD). */
    rateDate: date("rate_date", { mode: "string" }).notNull(),
    /** The administrator who set it; null for the built-in reference rates (lib/db/seed/fx-rates-data.ts). */
    setBy: text("set_by"),
    setAt: ts("set_at").notNull().defaultNow(),
  },
  (t) => [index("fx_rates_current_idx").on(t.currency, t.rateDate, t.setAt)],
);
