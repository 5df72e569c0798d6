// Money shapes (contract 9.2): the one currency field every schema uses, and the reference rates.
import { z } from "zod";
import { CURRENCY_CODES, isCurrencyCode } from "@/lib/money/currencies";
import { RATE_SCALE } from "@/lib/money/decimal";

const CURRENCY_MESSAGE = "An ISO 4217 currency code such as USD, EUR or CNY";

/**
 * A currency field: an ISO 4217 code of lib/money/currencies.ts (any case, trimmed; answered in
 * upper case). Anything else is 400 `validation_failed` naming the field, on REST, MCP and forms alike.
 */
export const Currency = z
  .string()
  .trim()
  .transform((c) => c.toUpperCase())
  .refine(isCurrencyCode, CURRENCY_MESSAGE)
  .meta({ description: `ISO 4217 code (${CURRENCY_CODES.length} accepted: the list of Intl.supportedValuesOf("currency"))`, example: "USD" });

/** YYYY-MM-DD, a real calendar day. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "A date as YYYY-MM-DD")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "Not a calendar date")
  .meta({ example: "2026-11-25" });

const RATE_MAX = 999_999_999_999;

/** Units of a currency per 1 USD: positive, at most 8 decimals. */
export const Rate = z
  .number()
  .finite()
  .gt(0, "A rate is positive")
  .max(RATE_MAX)
  .refine((v) => decimals(v) <= RATE_SCALE, `At most ${RATE_SCALE} decimals`)
  .meta({ description: "Units of the currency that 1 USD buys", example: 0.960523 });

export const FxRatesSchema = z
  .object({
    base: z.literal("USD"),
    date: IsoDate.meta({ description: "The latest date of any current rate" }),
    rates: z.record(z.string(), z.number()).meta({ description: "Units per 1 USD, by ISO 4217 code (USD is 1)", example: { USD: 1, EUR: 0.960523 } }),
    dates: z.record(z.string(), z.string()).meta({ description: "The date each rate refers to", example: { USD: "2025-02-28", EUR: "2025-02-28" } }),
  })
  .meta({
    id: "FxRates",
    example: {
      base: "USD",
      date: "2025-02-28",
      rates: { USD: 1, EUR: 0.960523, CNY: 7.27903 },
      dates: { USD: "2025-02-28", EUR: "2025-02-28", CNY: "2025-02-28" },
    },
  });

export const SetFxRatesBody = z
  .object({
    date: IsoDate.meta({ description: "The day the rates refer to; not in the future" }),
    rates: z
      .record(z.string(), Rate)
      .superRefine((rates, ctx) => {
        const codes = Object.keys(rates);
        if (codes.length === 0) ctx.addIssue({ code: "custom", path: [], message: "At least one rate" });
        if (codes.length > CURRENCY_CODES.length) ctx.addIssue({ code: "custom", path: [], message: `At most ${CURRENCY_CODES.length} rates` });
        for (const code of codes) {
          if (!isCurrencyCode(code)) ctx.addIssue({ code: "custom", path: [code], message: `${CURRENCY_MESSAGE} (upper case)` });
          else if (code === "USD" && rates[code] !== 1) ctx.addIssue({ code: "custom", path: [code], message: "USD is the base: its rate is 1" });
        }
      })
      .meta({ description: "Units per 1 USD by ISO 4217 code; currencies not listed keep their rate" }),
  })
  .meta({ id: "SetFxRates", example: { date: "2026-11-25", rates: { EUR: 0.9523, CNY: 7.1234, JPY: 151.2 } } });
export type SetFxRatesInput = z.output<typeof SetFxRatesBody>;

function decimals(v: number): number {
  const [mantissa = "", exp = "0"] = String(v).toLowerCase().split("e");
  const frac = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, frac - Number(exp));
}
