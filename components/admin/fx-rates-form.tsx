"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { CURRENCY_OPTIONS } from "@/lib/money/currencies";

type Rates = { base: "USD"; date: string; rates: Record<string, number>; dates: Record<string, string> };

/** The reference exchange rates (contract 9.2): every rate editable, a currency addable, saved as of a date (ADMIN). */
export function FxRatesAdmin() {
  const t = useTranslations("AdminFxRates");
  return (
    <SignInGate humansOnly>
      {(me) =>
        me.role === "ADMIN" ? (
          <RatesForm />
        ) : (
          <p className="rounded-xl border border-amber-200 bg-amber-50 p-6 text-amber-900" data-testid="fx-admins-only">
            {t("adminsOnly")}
          </p>
        )
      }
    </SignInGate>
  );
}

function RatesForm() {
  const t = useTranslations("AdminFxRates");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const [current, setCurrent] = useState<Rates | null>(null);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [date, setDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [added, setAdded] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [status, setStatus] = useState<"idle" | "saving" | "saved" | "unchanged">("idle");

  useEffect(() => {
    let cancelled = false;
    void apiFetch<Rates>("/api/fx-rates").then((r) => !cancelled && r.ok && setCurrent(r.data));
    return () => {
      cancelled = true;
    };
  }, []);

  if (!current) return <p className="text-slate-500">{tc("loading")}</p>;
  const codes = [...Object.keys(current.rates).filter((c) => c !== "USD"), ...Object.keys(edits).filter((c) => !(c in current.rates))].sort();
  const missing = CURRENCY_OPTIONS.filter((c) => c !== "USD" && !codes.includes(c));

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const rates = Object.fromEntries(
      Object.entries(edits)
        .filter(([c, v]) => v.trim() !== "" && Number(v) !== current!.rates[c])
        .map(([c, v]) => [c, Number(v)]),
    );
    if (Object.keys(rates).length === 0) return setStatus("unchanged");
    setStatus("saving");
    const r = await apiFetch<Rates>("/api/admin/fx-rates", { method: "PUT", json: { date, rates } });
    if (!r.ok) {
      setStatus("idle");
      return setProblem(r.problem);
    }
    setProblem(null);
    setCurrent(r.data);
    setEdits({});
    setStatus("saved");
  }

  const fieldError = (path: string) => problem?.errors?.find((x) => x.path === path)?.message;
  return (
    <form onSubmit={save} className="max-w-3xl space-y-5" data-testid="fx-rates-form" noValidate>
      <p className="text-sm text-slate-600">{t("explain", { date: current.date })}</p>
      <label className="block max-w-xs text-sm font-medium">
        {t("date")}
        <input
          type="date"
          name="date"
          required
          value={date}
          onChange={(e) => setDate(e.target.value)}
          className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
        />
        {fieldError("date") && <span className="mt-1 block text-sm text-red-700">{fieldError("date")}</span>}
      </label>
      {/* On a phone a wide table scrolls in its own box, never the page. */}
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-start">
            <tr>
              <th className="px-4 py-2 text-start">{t("currency")}</th>
              <th className="px-4 py-2 text-start">{t("rate")}</th>
              <th className="px-4 py-2 text-start">{t("asOf")}</th>
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => (
              <tr key={code} className="border-t border-slate-100">
                <td className="px-4 py-2 font-mono" dir="ltr">
                  {code}
                </td>
                <td className="px-4 py-2">
                  <input
                    type="number"
                    min={0}
                    step="any"
                    inputMode="decimal"
                    aria-label={t("rateFor", { currency: code })}
                    name={`rate-${code}`}
                    value={edits[code] ?? String(current.rates[code] ?? "")}
                    onChange={(e) => setEdits((x) => ({ ...x, [code]: e.target.value }))}
                    className="w-28 rounded-lg border border-slate-300 px-2 py-1 sm:w-40"
                    aria-invalid={fieldError(`rates.${code}`) ? true : undefined}
                  />
                  {fieldError(`rates.${code}`) && <span className="ms-2 text-red-700">{fieldError(`rates.${code}`)}</span>}
                </td>
                <td className="px-4 py-2 text-slate-500">
                  {current.dates[code] ? format.dateTime(new Date(`${current.dates[code]}T00:00:00Z`), { dateStyle: "medium", timeZone: "UTC" }) : t("new")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          {t("addCurrency")}
          <select
            name="add-currency"
            value={added}
            onChange={(e) => setAdded(e.target.value)}
            className="mt-1 block rounded-lg border border-slate-300 px-2 py-2"
          >
            <option value="">—</option>
            {missing.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!added}
          onClick={() => {
            setEdits((x) => ({ ...x, [added]: "" }));
            setAdded("");
          }}
          className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm disabled:opacity-50"
        >
          {t("add")}
        </button>
      </div>
      {problem && <FormAlert>{problem.detail}</FormAlert>}
      <div className="flex items-center gap-3">
        <button type="submit" disabled={status === "saving"} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-60">
          {status === "saving" ? tc("saving") : t("save")}
        </button>
        <span role="status" className="text-sm text-slate-600" data-testid="fx-rates-status">
          {status === "saved" ? t("saved") : status === "unchanged" ? t("unchanged") : ""}
        </span>
      </div>
    </form>
  );
}
