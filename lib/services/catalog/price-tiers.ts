// Quantity price breaks (contract 9.4). Pure, without server imports: the order, the product page, the
// server's validation and the seller's form all use these same functions.

/** Most tiers a product may have. */
export const PRICE_TIERS_MAX = 10;

type Money = string | number;
export type PriceTier<M extends Money = Money> = { minQty: number; unitPrice: M };
export type TierIssue = { path: string; message: string };

/** Whole cents, so 11.8 and "11.80" compare equal and no float rounding decides an order. */
const cents = (v: Money) => Math.round(Number(v) * 100);

/**
 * The unit price for an order of `quantity`: the tier with the largest `minQty` not above it, else the
 * base price (which applies from the product's moq up).
 */
export function unitPriceFor<M extends Money>(product: { price: M; priceTiers: readonly PriceTier<M>[] }, quantity: number): M {
  let unit = product.price;
  for (const t of product.priceTiers) if (t.minQty <= quantity) unit = t.unitPrice;
  return unit;
}

/**
 * What is wrong with `tiers` on a product of this price and moq, each issue with its path
 * (`priceTiers.1.unitPrice`). The tiers must start above the moq, rise in quantity and fall in price,
 * the first below the base price; `prefix` names the field the tiers came in.
 */
export function tierIssues(tiers: readonly PriceTier[], product: { price: Money; moq: number }, prefix = "priceTiers"): TierIssue[] {
  const issues: TierIssue[] = [];
  if (tiers.length > PRICE_TIERS_MAX) issues.push({ path: prefix, message: `At most ${PRICE_TIERS_MAX} price tiers` });
  tiers.forEach((t, i) => {
    const prev = tiers[i - 1];
    if (!Number.isInteger(t.minQty)) issues.push({ path: `${prefix}.${i}.minQty`, message: "A whole number" });
    else if (prev ? t.minQty <= prev.minQty : t.minQty <= product.moq)
      issues.push({
        path: `${prefix}.${i}.minQty`,
        message: prev
          ? `Must be above the previous tier's ${prev.minQty}`
          : `Must be above the minimum order (${product.moq}): the base price applies from there`,
      });
    const ceiling = prev ? prev.unitPrice : product.price;
    if (cents(t.unitPrice) >= cents(ceiling))
      issues.push({
        path: `${prefix}.${i}.unitPrice`,
        message: prev ? `Must be below the previous tier's ${Number(ceiling).toFixed(2)}` : `Must be below the base price ${Number(ceiling).toFixed(2)}`,
      });
  });
  return issues;
}

/** The stored form: amounts as two-decimal strings, like the numeric columns. */
export const storedTiers = (tiers: readonly PriceTier[]): PriceTier<string>[] =>
  tiers.map((t) => ({ minQty: t.minQty, unitPrice: Number(t.unitPrice).toFixed(2) }));

/** The answer's form: amounts as JSON numbers (contract 1). */
export const shownTiers = (tiers: readonly PriceTier[]): PriceTier<number>[] => tiers.map((t) => ({ minQty: t.minQty, unitPrice: Number(t.unitPrice) }));

/** Whether two tier lists are the same breaks at the same prices. */
export const sameTiers = (a: readonly PriceTier[], b: readonly PriceTier[]) =>
  a.length === b.length && a.every((t, i) => t.minQty === b[i]!.minQty && cents(t.unitPrice) === cents(b[i]!.unitPrice));
