import { CURRENCY_OPTIONS } from "@/lib/money/currencies";

/** Currencies offered in forms: exactly the ISO 4217 list the API accepts (lib/money/currencies.ts), common ones first. */
export const CURRENCIES = CURRENCY_OPTIONS;

/** An amount with its currency, as two named form fields. */
export function MoneyFields({ amountName, amountLabel, currencyLabel }: { amountName: string; amountLabel: string; currencyLabel: string }) {
  return (
    <div className="grid grid-cols-3 gap-2">
      <label className="col-span-2 block text-sm font-medium">
        {amountLabel}
        <input name={amountName} type="number" min={0} step="0.01" inputMode="decimal" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
      </label>
      <label className="block text-sm font-medium">
        {currencyLabel}
        <select name="currency" className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-2">
          {CURRENCIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
    </div>
  );
}
