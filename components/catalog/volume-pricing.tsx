import { getTranslations } from "next-intl/server";
import { Price } from "@/components/ui/price";
import { unitPriceFor } from "@/lib/services/catalog/price-tiers";

type Tier = { minQty: number; unitPrice: number };

/**
 * The product's quantity price breaks as a table (contract 9.4): each quantity range with the unit price
 * an order of that size pays, read through the same unitPriceFor the order uses.
 */
export async function VolumePricing({ product }: { product: { price: number; currency: string; moq: number; priceTiers: Tier[] } }) {
  if (!product.priceTiers.length) return null;
  const t = await getTranslations("Product");
  const starts = [product.moq, ...product.priceTiers.map((x) => x.minQty)];
  const rows = starts.map((from, i) => ({ from, to: i + 1 < starts.length ? starts[i + 1]! - 1 : null, unit: unitPriceFor(product, from) }));
  return (
    <section aria-labelledby="volume-pricing" className="rounded-xl border border-slate-200 bg-white p-5" data-testid="volume-pricing">
      <h2 id="volume-pricing" className="font-semibold">
        {t("volumePricing")}
      </h2>
      <table className="mt-3 w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-slate-500">
            <th scope="col" className="py-2 text-start font-medium">
              {t("quantityCol")}
            </th>
            <th scope="col" className="py-2 text-end font-medium">
              {t("unitPriceCol")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.from} className="border-b border-slate-100 last:border-0">
              <td className="py-2">{r.to === null ? t("tierFrom", { from: r.from }) : t("tierRange", { from: r.from, to: r.to })}</td>
              <td className="py-2 text-end font-semibold tabular-nums">
                <Price amount={r.unit} currency={product.currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
