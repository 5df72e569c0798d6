"use client";

// A store's quote on one open requirement. The body is checked with the API's own zod schema
// before sending, so the form and the server refuse the same things; what only the server knows
// (the validity window, self-trade, rate limits) comes back as problem+json and is shown by field.
import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { CURRENCIES } from "@/components/ui/money-fields";
import { QuoteRequirementBody } from "@/lib/schemas/offers";
import type { OfferState } from "@/components/negotiation/offer-status";
import { fieldErrors, inputClass, maxValidDate, useProblemText } from "./rfq-common";

export type SentOffer = { id: string; unitPrice: number; currency: string; quantity: number; status: OfferState };
type Answer = { offer: SentOffer; pendingApproval?: { id: string } };
export type StoreProduct = { id: string; title: string; currency: string };

const FIELDS = ["unitPrice", "currency", "quantity", "message", "productId", "validUntil"] as const;
type FieldName = (typeof FIELDS)[number];

export function QuoteForm({
  requirement,
  products,
  onSent,
}: {
  requirement: { id: string; title: string; quantity: number | null; currency: string | null };
  products: StoreProduct[];
  onSent: (offer: SentOffer, held: boolean) => void;
}) {
  const t = useTranslations("Rfq");
  const problemText = useProblemText();
  const id = useId();
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const localMessage: Record<FieldName, string> = {
    unitPrice: t("errPrice"),
    currency: t("errRequired"),
    quantity: t("errQuantity"),
    message: t("errMessage"),
    productId: t("errRequired"),
    validUntil: t("errValidUntil"),
  };

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const date = text("validUntil");
    // A date input names a day: the offer holds until that day's end in the user's time zone.
    const validUntil = date ? new Date(`${date}T23:59:59`).toISOString() : undefined;
    const body = {
      unitPrice: text("unitPrice") === "" ? NaN : Number(text("unitPrice")),
      currency: text("currency"),
      quantity: text("quantity") === "" ? NaN : Number(text("quantity")),
      message: text("message") || undefined,
      productId: text("productId") || undefined,
      validUntil,
    };
    const local: Partial<Record<FieldName, string>> = {};
    const parsed = QuoteRequirementBody.safeParse(body);
    if (!parsed.success) for (const issue of parsed.error.issues) local[issue.path[0] as FieldName] ??= localMessage[issue.path[0] as FieldName];
    if (validUntil && (new Date(validUntil) <= new Date() || date > maxValidDate())) local.validUntil = t("errValidUntil");
    setErrors(local);
    setAlert(null);
    if (Object.keys(local).length) return;
    setPending(true);
    const r = await apiFetch<Answer>(`/api/requirements/${requirement.id}/quotes`, { json: body });
    setPending(false);
    if (r.ok) return onSent(r.data.offer, Boolean(r.data.pendingApproval));
    const byField = fieldErrors(r.problem);
    const known = Object.fromEntries(Object.entries(byField).filter(([k]) => (FIELDS as readonly string[]).includes(k)));
    setErrors(known);
    if (!Object.keys(known).length) setAlert(problemText(r.problem));
  }

  const fid = (k: FieldName) => `${id}-${k}`;
  const described = (k: FieldName) => (errors[k] ? `${fid(k)}-error` : undefined);
  const err = (k: FieldName) =>
    errors[k] ? (
      <p id={`${fid(k)}-error`} className="mt-1 text-sm text-red-700">
        {errors[k]}
      </p>
    ) : null;
  const cls = (k: FieldName) => `${inputClass} ${errors[k] ? "border-red-500" : "border-slate-300"}`;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-3 space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
      data-testid="quote-form"
      aria-busy={pending}
    >
      <h3 className="font-semibold">
        {t("quoteTitle")} <bdi>{requirement.title}</bdi>
      </h3>
      <div aria-live="assertive">{alert && <FormAlert>{alert}</FormAlert>}</div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <label htmlFor={fid("unitPrice")} className="block text-sm font-medium">
            {t("unitPrice")}
          </label>
          <input
            id={fid("unitPrice")}
            name="unitPrice"
            type="number"
            min={0}
            step="0.01"
            inputMode="decimal"
            required
            aria-invalid={errors.unitPrice ? true : undefined}
            aria-describedby={described("unitPrice")}
            className={cls("unitPrice")}
          />
          {err("unitPrice")}
        </div>
        <div>
          <label htmlFor={fid("currency")} className="block text-sm font-medium">
            {t("currency")}
          </label>
          <select id={fid("currency")} name="currency" defaultValue={requirement.currency ?? "USD"} className={cls("currency")}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          {err("currency")}
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={fid("quantity")} className="block text-sm font-medium">
            {t("quantity")}
          </label>
          <input
            id={fid("quantity")}
            name="quantity"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            required
            defaultValue={requirement.quantity ?? undefined}
            aria-invalid={errors.quantity ? true : undefined}
            aria-describedby={described("quantity")}
            className={cls("quantity")}
          />
          {err("quantity")}
        </div>
        <div>
          <label htmlFor={fid("validUntil")} className="block text-sm font-medium">
            {t("validUntil")}
          </label>
          <input
            id={fid("validUntil")}
            name="validUntil"
            type="date"
            max={maxValidDate()}
            aria-invalid={errors.validUntil ? true : undefined}
            aria-describedby={described("validUntil")}
            className={cls("validUntil")}
          />
          {err("validUntil")}
        </div>
      </div>
      <div>
        <label htmlFor={fid("productId")} className="block text-sm font-medium">
          {t("product")}
        </label>
        <select id={fid("productId")} name="productId" aria-describedby={described("productId")} className={cls("productId")}>
          <option value="">{t("noProduct")}</option>
          {products.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
        {err("productId")}
      </div>
      <div>
        <label htmlFor={fid("message")} className="block text-sm font-medium">
          {t("message")}
        </label>
        <textarea
          id={fid("message")}
          name="message"
          rows={3}
          maxLength={5000}
          dir="auto"
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={described("message")}
          className={cls("message")}
        />
        {err("message")}
      </div>
      <button
        type="submit"
        disabled={pending}
        className="inline-flex items-center gap-2 rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-60"
      >
        {pending && <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" />}
        {pending ? t("sending") : t("send")}
      </button>
    </form>
  );
}
