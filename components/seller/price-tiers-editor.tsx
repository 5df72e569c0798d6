"use client";

// Quantity price breaks in the seller's product form (contract 9.4): rows of (from quantity, unit
// price), checked here by the same rules the server applies (lib/services/catalog/price-tiers.ts).
import { useLocale, useTranslations } from "next-intl";
import { PRICE_TIERS_MAX, tierIssues } from "@/lib/services/catalog/price-tiers";
import { priceText } from "@/components/ui/price";

export type TierRow = { minQty: number | ""; unitPrice: number | "" };

/**
 * The tier errors of a form, translated, keyed by the server's paths (`priceTiers.1.unitPrice`): empty
 * fields first, then the order against the base price and moq (what the server would refuse).
 */
export function useTierErrors() {
  const t = useTranslations("SellerProducts");
  const locale = useLocale();
  return (rows: TierRow[], price: number | "", moq: number | "", currency: string): Record<string, string> => {
    const errors: Record<string, string> = {};
    rows.forEach((r, i) => {
      if (r.minQty === "") errors[`priceTiers.${i}.minQty`] = t("tierRequired");
      if (r.unitPrice === "") errors[`priceTiers.${i}.unitPrice`] = t("tierRequired");
    });
    if (Object.keys(errors).length || price === "" || moq === "") return errors;
    const tiers = rows.map((r) => ({ minQty: Number(r.minQty), unitPrice: Number(r.unitPrice) }));
    for (const issue of tierIssues(tiers, { price, moq })) {
      const [, index, field] = issue.path.split(".");
      const i = Number(index);
      if (field === "minQty")
        errors[issue.path] = Number.isInteger(tiers[i]!.minQty) ? t("tierQtyAbove", { min: i === 0 ? moq : tiers[i - 1]!.minQty }) : t("tierWhole");
      else if (field === "unitPrice") {
        const max = priceText(locale, Number(i === 0 ? price : tiers[i - 1]!.unitPrice), currency);
        errors[issue.path] = i === 0 ? t("tierBelowPrice", { max }) : t("tierBelowPrevious", { max });
      } else errors[issue.path] = t("tierMax", { max: PRICE_TIERS_MAX });
    }
    return errors;
  };
}

export function PriceTiersEditor({ rows, onChange, errors }: { rows: TierRow[]; onChange: (rows: TierRow[]) => void; errors: Record<string, string> }) {
  const t = useTranslations("SellerProducts");
  const setRow = (i: number, patch: Partial<TierRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const num = (v: string) => (v === "" ? "" : Number(v));
  const input = (invalid: boolean) => `block w-full min-w-0 rounded-lg border px-3 py-2 ${invalid ? "border-red-500" : "border-slate-300"}`;
  const field = (i: number, name: keyof TierRow, label: string, props: { step: string; min: number; inputMode: "numeric" | "decimal" }) => {
    const path = `priceTiers.${i}.${name}`;
    const id = `tier-${i}-${name}`;
    return (
      <div className="min-w-0">
        <label htmlFor={id} className="block text-xs font-medium text-slate-600">
          {label}
        </label>
        <input
          id={id}
          type="number"
          {...props}
          value={rows[i]![name]}
          onChange={(e) => setRow(i, { [name]: num(e.target.value) })}
          className={input(!!errors[path])}
          aria-invalid={errors[path] ? true : undefined}
          aria-describedby={errors[path] ? `${id}-error` : undefined}
          name={path}
        />
        {errors[path] && (
          <p id={`${id}-error`} className="mt-1 text-xs text-red-700">
            {errors[path]}
          </p>
        )}
      </div>
    );
  };
  return (
    <fieldset className="space-y-3" data-testid="price-tiers-editor">
      <legend className="text-sm font-medium">{t("tiersLabel")}</legend>
      <p className="text-xs text-slate-500" id="tiers-hint">
        {t("tiersHint", { max: PRICE_TIERS_MAX })}
      </p>
      {errors.priceTiers && (
        <p className="text-sm text-red-700" role="alert">
          {errors.priceTiers}
        </p>
      )}
      {rows.length > 0 && (
        <ol className="space-y-2">
          {rows.map((_, i) => (
            <li key={i} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2" aria-label={t("tierRow", { index: i + 1 })}>
              {field(i, "minQty", t("tierMinQty"), { step: "1", min: 1, inputMode: "numeric" })}
              {field(i, "unitPrice", t("tierUnitPrice"), { step: "0.01", min: 0, inputMode: "decimal" })}
              <button
                type="button"
                onClick={() => onChange(rows.filter((__, j) => j !== i))}
                className="mt-5 rounded-lg border border-slate-300 px-3 py-2 text-sm hover:bg-slate-50"
                aria-label={t("removeTier", { index: i + 1 })}
              >
                ×
              </button>
            </li>
          ))}
        </ol>
      )}
      {rows.length < PRICE_TIERS_MAX && (
        <button
          type="button"
          onClick={() => {
            onChange([...rows, { minQty: "", unitPrice: "" }]);
            // Keyboard users continue in the new row rather than on the button.
            requestAnimationFrame(() => document.getElementById(`tier-${rows.length}-minQty`)?.focus());
          }}
          className="rounded-lg border border-brand-300 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
          aria-describedby="tiers-hint"
        >
          {t("addTier")}
        </button>
      )}
    </fieldset>
  );
}
