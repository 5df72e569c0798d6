// The guardian's mandate in real money, seller side (contract 9.2): any price an AI_SELLER would put
// on a product (its price and currency, or a quote) is converted to the currency of the product's
// reference price and held for the guardian when it is more than `maxDiscountPercent` below it. The
// reference is the last price a person of the store set or the guardian approved, so an agent's own
// earlier cuts never lower it and a change of currency alone is measured like any other price.
import type { AiActor } from "@/lib/auth/actor";
import { convertCents, formatCents, loadRates, toCents } from "@/lib/money/convert";
import type { ApprovalSummary } from "@/lib/schemas/ai";
import type { RuleCtx } from "./conduct";
import { aiMandate, requireRate } from "./mandate";

export type Price = { amount: string; currency: string };

/** The product columns the reference is read from. */
export type PricedProduct = { price: string; currency: string; referencePrice: string | null; referenceCurrency: string | null };

/** The product's reference price: pinned, or (never pinned yet) its current price. */
export function referenceOf(p: PricedProduct): Price {
  return p.referencePrice !== null && p.referenceCurrency !== null
    ? { amount: p.referencePrice, currency: p.referenceCurrency }
    : { amount: p.price, currency: p.currency };
}

export type PriceHold = Pick<ApprovalSummary, "rule" | "ruleCode" | "ruleParams"> & { price: NonNullable<ApprovalSummary["price"]> };

/**
 * Why `offered` needs the guardian (a discount from `reference` deeper than the agent's mandate), or
 * null. A currency without a reference rate cannot be compared: 400 naming `field`.
 */
export async function sellerPriceRule(ctx: RuleCtx<AiActor>, old: Price, reference: Price, offered: Price, field = "currency"): Promise<PriceHold | null> {
  const { db, actor } = ctx;
  const m = await aiMandate(db, actor.user.id);
  const rates = requireRate(await loadRates(db, [reference.currency, offered.currency]), offered.currency, reference.currency, field);
  const ref = toCents(reference.amount);
  const inRef = convertCents(rates, toCents(offered.amount), offered.currency, reference.currency, field);
  // In hundredths of a percent, exactly: the discount is (ref - inRef) / ref.
  const maxBp = toCents(m.maxDiscountPercent);
  if (ref <= 0n || inRef >= ref || (ref - inRef) * 10000n <= maxBp * ref) return null;
  const discountBp = ((ref - inRef) * 10000n) / ref;
  const percent = formatCents(discountBp);
  const max = formatCents(maxBp);
  const referenceText = `${formatCents(ref)} ${reference.currency}`;
  const offeredText =
    offered.currency === reference.currency
      ? `${formatCents(inRef)} ${reference.currency}`
      : `${formatCents(toCents(offered.amount))} ${offered.currency} (${formatCents(inRef)} ${reference.currency})`;
  return {
    rule: `${offeredText} is ${percent}% below the reference price ${referenceText}, more than the allowed ${max}%`,
    ruleCode: "discount",
    ruleParams: {
      percent,
      max,
      reference: formatCents(ref),
      referenceCurrency: reference.currency,
      offered: formatCents(toCents(offered.amount)),
      offeredCurrency: offered.currency,
    },
    price: {
      old: { amount: Number(old.amount), currency: old.currency },
      new: { amount: Number(offered.amount), currency: offered.currency },
      reference: { amount: Number(formatCents(ref)), currency: reference.currency },
      newInReference: Number(formatCents(inRef)),
    },
  };
}

/** A price of the change to measure: the base price, or a tier's (`minQty` set). */
export type Measured = { amount: string; minQty?: number };

/**
 * A product change of price, currency and/or price tiers (contract 9.4: the discount rule covers every
 * tier), measured by the one rule above at its deepest price. `measured` holds the prices the change
 * puts, all in `next.currency`; the hold shows `next` as the new price, whichever price was deepest.
 */
export async function sellerPriceChangeRule(
  ctx: RuleCtx<AiActor>,
  old: Price,
  reference: Price,
  next: Price,
  measured: Measured[],
  field: string,
): Promise<PriceHold | null> {
  const deepest = measured.reduce<Measured | null>((low, m) => (low === null || toCents(m.amount) < toCents(low.amount) ? m : low), null);
  if (!deepest) return null;
  const hold = await sellerPriceRule(ctx, old, reference, { amount: deepest.amount, currency: next.currency }, field);
  if (!hold || deepest.minQty === undefined)
    return hold && { ...hold, price: { ...hold.price, new: { amount: Number(next.amount), currency: next.currency } } };
  return {
    ...hold,
    rule: `The price tier from ${deepest.minQty} pieces: ${hold.rule}`,
    ruleParams: { ...hold.ruleParams, minQty: String(deepest.minQty) },
    price: { ...hold.price, new: { amount: Number(next.amount), currency: next.currency } },
  };
}
