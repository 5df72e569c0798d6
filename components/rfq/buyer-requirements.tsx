"use client";

// The buyer's purchase requirements (the "My requirements" tab of /buyer): the list, each linked
// to its quote comparison, and the form that posts a new one with category and quantity.
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { MoneyFields } from "@/components/ui/money-fields";
import { StatusBadge } from "@/components/ui/status-badge";
import { Link } from "@/lib/i18n/navigation";
import { CategoryOptions, fieldErrors, inputClass, useCategories, useProblemText } from "./rfq-common";
import { Price } from "@/components/ui/price";

type Requirement = {
  id: string;
  title: string;
  description: string;
  budget: number | null;
  currency: string | null;
  quantity: number | null;
  status: string;
  createdAt: string;
};

export function BuyerRequirements() {
  const t = useTranslations("Buyer");
  const tr = useTranslations("Rfq");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const problemText = useProblemText();
  const cats = useCategories();
  const [version, setVersion] = useState(0);
  const [items, setItems] = useState<Requirement[] | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ requirements: Requirement[] }>("/api/buyer/requirements?limit=100").then((r) => !cancelled && setItems(r.ok ? r.data.requirements : []));
    return () => {
      cancelled = true;
    };
  }, [version]);

  async function post(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const budget = text("budget");
    const quantity = text("quantity");
    if (quantity && !(Number.isInteger(Number(quantity)) && Number(quantity) >= 1)) return setError(tr("errQuantity"));
    setPending(true);
    setError(null);
    const r = await apiFetch("/api/buyer/requirements", {
      json: {
        title: text("title"),
        description: text("description"),
        ...(budget ? { budget: Number(budget), currency: text("currency") } : {}),
        ...(text("categoryId") ? { categoryId: text("categoryId") } : {}),
        ...(quantity ? { quantity: Number(quantity) } : {}),
      },
    });
    setPending(false);
    if (!r.ok) {
      const byField = Object.entries(fieldErrors(r.problem));
      return setError(byField.length ? byField.map(([k, m]) => `${k}: ${m}`).join("; ") : problemText(r.problem));
    }
    form.reset();
    setVersion((v) => v + 1);
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <div>
        {!items ? (
          <p className="text-slate-500">{tc("loading")}</p>
        ) : !items.length ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("noRequirements")}</p>
        ) : (
          <ul className="space-y-3">
            {items.map((r) => (
              <li key={r.id} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="buyer-requirement">
                <div className="flex flex-wrap items-center gap-3">
                  <Link href={`/buyer/requirements/${r.id}`} className="font-semibold break-words text-brand-700 hover:underline" dir="auto">
                    {r.title}
                  </Link>
                  <StatusBadge status={r.status} />
                  {r.quantity !== null && <span className="text-sm text-slate-600">{format.number(r.quantity)}</span>}
                  {r.budget !== null && r.currency && (
                    <span className="text-sm text-slate-600" data-testid="requirement-budget">
                      <Price amount={r.budget} currency={r.currency} />
                    </span>
                  )}
                  <Link href={`/buyer/requirements/${r.id}`} className="ms-auto text-sm text-brand-700 underline">
                    {tr("viewQuotes")}
                  </Link>
                  {r.status === "open" && (
                    <button
                      type="button"
                      className="text-sm underline"
                      onClick={() => void apiFetch(`/api/buyer/requirements/${r.id}/close`, { method: "POST" }).then(() => setVersion((v) => v + 1))}
                    >
                      {t("closeRequirement")}
                    </button>
                  )}
                </div>
                {r.description && (
                  <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-700 [unicode-bidi:plaintext]" dir="auto">
                    {r.description}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <form onSubmit={post} className="space-y-3 rounded-xl border border-slate-200 bg-white p-5" data-testid="requirement-form">
        <h2 className="font-semibold">{t("postRequirement")}</h2>
        <div aria-live="assertive">{error && <FormAlert>{error}</FormAlert>}</div>
        <label className="block text-sm font-medium">
          {t("reqTitle")}
          <input name="title" required maxLength={200} dir="auto" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <label className="block text-sm font-medium">
          {t("reqDescription")}
          <textarea name="description" rows={4} maxLength={10000} dir="auto" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
        </label>
        <label className="block text-sm font-medium">
          {tr("reqCategory")}
          <select name="categoryId" className={`${inputClass} border-slate-300`}>
            <option value="">{tr("noCategory")}</option>
            <CategoryOptions cats={cats} />
          </select>
        </label>
        <label className="block text-sm font-medium">
          {tr("reqQuantity")}
          <input name="quantity" type="number" min={1} step={1} inputMode="numeric" className={`${inputClass} border-slate-300`} />
        </label>
        <MoneyFields amountName="budget" amountLabel={t("reqBudget")} currencyLabel={t("reqCurrency")} />
        <button type="submit" disabled={pending} className="w-full rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-60">
          {pending ? t("posting") : t("post")}
        </button>
      </form>
    </div>
  );
}
