// The counter form's checks, mirroring the server's: the shared body schema (lib/schemas/offers.ts)
// plus the rules the service adds (validity window, total within the money limit).
import { CounterOfferBody } from "@/lib/schemas/offers";
import { MONEY_MAX } from "@/lib/schemas/common";

export const MAX_VALIDITY_DAYS = 90;
const DAY_MS = 86_400_000;

export type CounterField = "unitPrice" | "quantity" | "message" | "validUntil";
export type CounterInput = { unitPrice: string; quantity: string; message: string; validUntil: string };
export type CounterBody = { unitPrice: number; quantity: number; message?: string; validUntil?: string };

/** `validUntil` is a date (YYYY-MM-DD) from a date input: the offer holds until that day's end, local time. */
export function checkCounter(
  input: CounterInput,
  now = new Date(),
): { ok: true; body: CounterBody } | { ok: false; errors: Partial<Record<CounterField, true>> } {
  const errors: Partial<Record<CounterField, true>> = {};
  let validUntil: string | undefined;
  if (input.validUntil) {
    const end = new Date(`${input.validUntil}T23:59:59`);
    if (Number.isNaN(end.getTime()) || end <= now || end.getTime() - now.getTime() > MAX_VALIDITY_DAYS * DAY_MS) errors.validUntil = true;
    else validUntil = end.toISOString();
  }
  const body = {
    unitPrice: input.unitPrice.trim() === "" ? NaN : Number(input.unitPrice),
    quantity: input.quantity.trim() === "" ? NaN : Number(input.quantity),
    ...(input.message.trim() ? { message: input.message } : {}),
    ...(validUntil ? { validUntil } : {}),
  };
  const parsed = CounterOfferBody.safeParse(body);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0]) as CounterField] = true;
  if (!errors.unitPrice && !errors.quantity && Math.round(body.unitPrice * 100) * body.quantity > MONEY_MAX * 100) errors.quantity = true;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body };
}
