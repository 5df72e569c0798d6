"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/field";
import { CURRENCIES } from "@/components/ui/money-fields";
import { Switch } from "@/components/ui/switch";
import { SetAgentPassword } from "./set-password";
import { defaultPermissions, PERMISSION_NAMES, permissionMessageKey, type Permission } from "@/lib/ai/permissions";
import type { AiAccount } from "./types";

/** One AI account: status with disable/enable, its permission switches, its thresholds and a new password. */
export function AccountCard({ account, onChange }: { account: AiAccount; onChange: (next: AiAccount) => void }) {
  const t = useTranslations("AiAccounts");
  const tp = useTranslations("Permissions");
  const tc = useTranslations("Common");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // The amounts are in the mandate currency: the code shown beside them follows the select at once.
  const [currency, setCurrency] = useState(account.mandateCurrency);
  const defaults = defaultPermissions(account.role);

  async function togglePermission(permission: Permission, isAllowed: boolean) {
    setBusy(permission);
    setError(null);
    onChange({ ...account, permissions: { ...account.permissions, [permission]: isAllowed } });
    const res = await apiFetch<{ permissions: AiAccount["permissions"] }>("/api/ai/permissions", {
      method: "PUT",
      json: { aiUserId: account.aiUserId, permission, isAllowed },
    });
    setBusy(null);
    if (res.ok) onChange({ ...account, permissions: res.data.permissions });
    else {
      onChange(account);
      setError(t("permissionSaveFailed"));
    }
  }

  async function setDisabled(disabled: boolean) {
    setConfirming(false);
    setBusy("status");
    const res = disabled
      ? await apiFetch<{ account: AiAccount }>(`/api/ai/accounts?aiUserId=${encodeURIComponent(account.aiUserId)}`, { method: "DELETE" })
      : await apiFetch<{ account: AiAccount }>("/api/ai/accounts", { method: "PATCH", json: { aiUserId: account.aiUserId, disabled: false } });
    setBusy(null);
    if (res.ok) onChange(res.data.account);
    else setError(tc("errorGeneric"));
  }

  async function saveLimits(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const num = (name: string) => Number(String(form.get(name) ?? "").replace(",", "."));
    const budgetRaw = String(form.get("monthlyBudget") ?? "").trim();
    setBusy("limits");
    setSaved(false);
    setError(null);
    const res = await apiFetch<{ account: AiAccount }>("/api/ai/accounts", {
      method: "PATCH",
      json: {
        aiUserId: account.aiUserId,
        mandateCurrency: String(form.get("mandateCurrency") ?? account.mandateCurrency),
        orderApprovalThreshold: num("orderApprovalThreshold"),
        maxDiscountPercent: num("maxDiscountPercent"),
        ...(account.role === "AI_BUYER" ? { monthlyBudget: budgetRaw === "" ? null : num("monthlyBudget") } : {}),
      },
    });
    setBusy(null);
    if (res.ok) {
      onChange(res.data.account);
      setSaved(true);
    } else setError(res.problem.detail);
  }

  return (
    <section className="rounded-xl border border-slate-200 bg-white shadow-sm" aria-labelledby={`acct-${account.aiUserId}`} data-testid="ai-account-card">
      <header className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-5 py-4">
        <h2 id={`acct-${account.aiUserId}`} className="min-w-0 font-mono text-lg font-semibold [overflow-wrap:anywhere]" dir="ltr">
          {account.username}
        </h2>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${account.disabled ? "bg-slate-200 text-slate-700" : "bg-green-100 text-green-800"}`}
          data-testid="ai-status"
        >
          {account.disabled ? t("disabled") : t("enabled")}
        </span>
        <button
          type="button"
          disabled={busy === "status"}
          onClick={() => setConfirming(true)}
          className={`ms-auto rounded-lg px-3 py-1.5 text-sm font-medium ${account.disabled ? "bg-brand-600 text-white" : "border border-red-300 text-red-700 hover:bg-red-50"}`}
        >
          {account.disabled ? t("enable") : t("disable")}
        </button>
      </header>
      {error && (
        <div className="px-5 pt-4">
          <FormAlert>{error}</FormAlert>
        </div>
      )}
      <div className="grid gap-6 p-5 lg:grid-cols-2">
        <div>
          <h3 className="font-semibold">{t("permissionsTitle")}</h3>
          <ul className="mt-3 divide-y divide-slate-100">
            {PERMISSION_NAMES.map((p) => (
              <li key={p} className="flex items-center justify-between gap-3 py-2">
                <span>
                  <span className="block text-sm">{tp(permissionMessageKey(p))}</span>
                  <span className="block font-mono text-xs text-slate-500" dir="ltr">
                    {p} · {t("permissionDefault", { value: defaults[p] ? tc("yes") : tc("no") })}
                  </span>
                </span>
                <Switch
                  checked={account.permissions[p]}
                  label={tp(permissionMessageKey(p))}
                  disabled={busy === p}
                  onChange={(v) => void togglePermission(p, v)}
                />
              </li>
            ))}
          </ul>
        </div>
        <form onSubmit={saveLimits} className="space-y-4">
          <h3 className="font-semibold">{t("limitsTitle")}</h3>
          <div>
            <label htmlFor={`mandateCurrency-${account.aiUserId}`} className="block text-sm font-medium text-slate-800">
              {t("mandateCurrencyLabel")}
            </label>
            <select
              id={`mandateCurrency-${account.aiUserId}`}
              name="mandateCurrency"
              value={currency}
              onChange={(e) => setCurrency(e.target.value)}
              aria-describedby={`mandateCurrency-${account.aiUserId}-hint`}
              className="mt-1 block w-full rounded-lg border border-slate-300 px-2 py-2"
              dir="ltr"
            >
              {CURRENCIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
            <p id={`mandateCurrency-${account.aiUserId}-hint`} className="mt-1 text-xs text-slate-500">
              {t("mandateCurrencyHint")}
            </p>
          </div>
          <NumberField
            name="orderApprovalThreshold"
            label={t("thresholdLabel")}
            hint={account.role === "AI_BUYER" ? t("thresholdHint") : undefined}
            value={account.orderApprovalThreshold}
            id={account.aiUserId}
            unit={currency}
          />
          <NumberField name="maxDiscountPercent" label={t("discountLabel")} value={account.maxDiscountPercent} id={account.aiUserId} max={100} unit="%" />
          {account.role === "AI_BUYER" && (
            <NumberField
              name="monthlyBudget"
              label={t("budgetLabel")}
              hint={t("budgetHint")}
              value={account.monthlyBudget}
              id={account.aiUserId}
              unit={currency}
            />
          )}
          <div className="flex items-center gap-3">
            <button
              type="submit"
              disabled={busy === "limits"}
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white disabled:opacity-60"
            >
              {busy === "limits" ? tc("saving") : tc("save")}
            </button>
            {saved && (
              <span role="status" className="text-sm text-green-700">
                {tc("saved")}
              </span>
            )}
          </div>
        </form>
      </div>
      <div className="border-t border-slate-100 px-5 py-4">
        <SetAgentPassword account={account} />
      </div>
      <ConfirmDialog
        open={confirming}
        danger={!account.disabled}
        title={account.disabled ? t("enableConfirmTitle", { username: account.username }) : t("disableConfirmTitle", { username: account.username })}
        body={account.disabled ? t("enableConfirmBody") : t("disableConfirmBody")}
        confirmLabel={account.disabled ? t("enable") : t("disable")}
        cancelLabel={tc("cancel")}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void setDisabled(!account.disabled)}
      />
    </section>
  );
}

function NumberField({
  name,
  label,
  hint,
  value,
  id,
  max,
  unit,
}: {
  name: string;
  label: string;
  hint?: string;
  value: number | null;
  id: string;
  max?: number;
  /** The currency code (or %) the amount is in, shown beside the input. */
  unit: string;
}) {
  const fieldId = `${name}-${id}`;
  return (
    <div>
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1 flex items-stretch" dir="ltr">
        <input
          id={fieldId}
          name={name}
          type="number"
          inputMode="decimal"
          min={0}
          max={max}
          step="0.01"
          defaultValue={value ?? ""}
          aria-describedby={hint ? `${fieldId}-hint ${fieldId}-unit` : `${fieldId}-unit`}
          className="block w-full rounded-s-lg border border-slate-300 px-3 py-2"
        />
        <span
          id={`${fieldId}-unit`}
          data-testid={`${name}-unit`}
          className="inline-flex items-center rounded-e-lg border border-s-0 border-slate-300 bg-slate-50 px-3 font-mono text-sm text-slate-700"
        >
          {unit}
        </span>
      </div>
      {hint && (
        <p id={`${fieldId}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
