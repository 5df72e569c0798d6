"use client";

// The counter-offer form: prefilled with the offer answered, checked in the browser as the server
// checks it (./counter-check.ts), the server's field errors shown on their fields.
import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { Field, FormAlert } from "@/components/ui/field";
import { checkCounter, MAX_VALIDITY_DAYS, type CounterField } from "./counter-check";
import { Spinner } from "./spinner";
import type { Offer } from "./use-thread";

const FIELDS: CounterField[] = ["unitPrice", "quantity", "message", "validUntil"];

export function CounterForm({ offer, onCountered }: { offer: Offer; onCountered: (held: boolean) => void }) {
  const t = useTranslations("Negotiation");
  const id = useId();
  const [errors, setErrors] = useState<Partial<Record<CounterField, true>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const message = (f: CounterField) => (errors[f] ? t(`errors.${f}`, { days: MAX_VALIDITY_DAYS }) : undefined);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const checked = checkCounter({
      unitPrice: String(f.get("unitPrice") ?? ""),
      quantity: String(f.get("quantity") ?? ""),
      message: String(f.get("message") ?? ""),
      validUntil: String(f.get("validUntil") ?? ""),
    });
    if (!checked.ok) {
      setErrors(checked.errors);
      setAlert(t("errors.invalid"));
      return;
    }
    setErrors({});
    setAlert(null);
    setPending(true);
    const r = await apiFetch<{ pendingApproval?: unknown }>(`/api/offers/${encodeURIComponent(offer.id)}/counter`, { json: checked.body });
    setPending(false);
    if (r.ok) return onCountered(Boolean(r.data.pendingApproval));
    const onFields = (r.problem.errors ?? []).map((x) => x.path.split(/[./]/).find(Boolean) as CounterField).filter((p) => FIELDS.includes(p));
    setErrors(Object.fromEntries(onFields.map((p) => [p, true])));
    setAlert(
      r.problem.code === "validation_failed"
        ? t("errors.invalid")
        : r.problem.code === "invalid_state"
          ? t("errors.noLongerOpen")
          : r.problem.code === "network"
            ? t("errors.network")
            : r.problem.detail,
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3 border-t border-slate-100 pt-4" data-testid="counter-form" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="font-medium">
        {t("counterHeading")}
      </h3>
      {alert && <FormAlert>{alert}</FormAlert>}
      <Field
        id={`${id}-price`}
        name="unitPrice"
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0"
        required
        defaultValue={offer.unitPrice}
        label={t("unitPriceIn", { currency: offer.currency })}
        error={message("unitPrice")}
      />
      <Field
        id={`${id}-qty`}
        name="quantity"
        type="number"
        inputMode="numeric"
        step="1"
        min="1"
        required
        defaultValue={offer.quantity}
        label={t("quantity")}
        error={message("quantity")}
      />
      <div>
        <label htmlFor={`${id}-msg`} className="block text-sm font-medium text-slate-800">
          {t("message")}
          <span className="ms-1 font-normal text-slate-500">({t("optional")})</span>
        </label>
        <textarea
          id={`${id}-msg`}
          name="message"
          rows={3}
          maxLength={5000}
          dir="auto"
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${id}-msg-error` : undefined}
          className={`mt-1 block w-full rounded-lg border px-3 py-2 shadow-sm ${errors.message ? "border-red-500" : "border-slate-300"}`}
        />
        {errors.message && (
          <p id={`${id}-msg-error`} className="mt-1 text-sm text-red-700">
            {message("message")}
          </p>
        )}
      </div>
      <Field
        id={`${id}-valid`}
        name="validUntil"
        type="date"
        optionalLabel={t("optional")}
        label={t("validUntil")}
        hint={t("validUntilHint", { days: MAX_VALIDITY_DAYS })}
        error={message("validUntil")}
      />
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="inline-flex w-full items-center justify-center gap-2 rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 disabled:opacity-60"
      >
        {pending && <Spinner />}
        {pending ? t("sending") : t("sendCounter")}
      </button>
    </form>
  );
}
