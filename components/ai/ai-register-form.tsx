"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { Field, FormAlert } from "@/components/ui/field";
import { apiFetch } from "@/components/lib/api-client";
import { Link } from "@/lib/i18n/navigation";
import type { Me } from "@/components/auth/use-me";
import { fill } from "@/components/ui/sentence";

type Role = "AI_BUYER" | "AI_SELLER";

export function AiRegisterForm({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("AiRegister");
  const [role, setRole] = useState<Role>("AI_BUYER");
  const [existing, setExisting] = useState<Role[]>([]);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [created, setCreated] = useState<string | null>(null);

  useEffect(() => {
    void apiFetch<{ accounts: { role: Role }[] }>("/api/ai/accounts").then((r) => {
      if (r.ok) setExisting(r.data.accounts.map((a) => a.role));
    });
  }, [created]);

  const username = `${me.username}_${role}`;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    const confirm = String(form.get("confirm") ?? "");
    setError(null);
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setPending(true);
    const res = await apiFetch<{ account: { username: string } }>("/api/ai/accounts", { json: { role, password } });
    setPending(false);
    if (res.ok) {
      setCreated(res.data.account.username);
      return;
    }
    const code = res.problem.code;
    setError(
      code === "ai_account_exists"
        ? t("exists")
        : code === "seller_profile_required"
          ? t("needsStore")
          : code === "validation_failed"
            ? t("passwordHint")
            : res.problem.detail,
    );
  }

  if (created) {
    return (
      <div role="status" className="rounded-xl border border-green-200 bg-green-50 p-6" data-testid="ai-created">
        <p className="font-semibold text-green-900">
          {fill((m) => t("created", { username: m.username! }), {
            username: (
              <bdi dir="ltr" className="font-mono [overflow-wrap:anywhere]">
                {created}
              </bdi>
            ),
          })}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Link href="/seller/ai-accounts" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white">
            {t("manage")}
          </Link>
          <button type="button" onClick={() => setCreated(null)} className="rounded-lg border border-slate-300 px-4 py-2 text-sm">
            {t("title")}
          </button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-6" noValidate>
      {error && <FormAlert>{error}</FormAlert>}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t("roleLabel")}</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {(["AI_BUYER", "AI_SELLER"] as const).map((r) => {
            const taken = existing.includes(r);
            return (
              <label
                key={r}
                className={`flex cursor-pointer gap-3 rounded-lg border p-4 ${role === r ? "border-brand-600 bg-brand-50" : "border-slate-300"} ${taken ? "opacity-60" : ""}`}
              >
                <input type="radio" name="role" value={r} checked={role === r} disabled={taken} onChange={() => setRole(r)} className="mt-1" />
                <span>
                  <span className="block font-medium">{r === "AI_BUYER" ? t("roleBuyer") : t("roleSeller")}</span>
                  <span className="block text-sm text-slate-600">{r === "AI_BUYER" ? t("roleBuyerHint") : t("roleSellerHint")}</span>
                  {taken && <span className="mt-1 block text-xs font-medium text-slate-500">{t("already")}</span>}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="rounded-lg bg-slate-100 p-4" aria-live="polite">
        <p className="text-sm text-slate-600">{t("usernamePreview")}</p>
        <p className="mt-1 font-mono text-lg font-semibold [overflow-wrap:anywhere]" dir="ltr" data-testid="ai-username-preview">
          {username}
        </p>
        <p className="mt-1 text-xs text-slate-500">{t("usernameFixed")}</p>
      </div>
      <Field
        id="password"
        name="password"
        type="password"
        label={t("passwordLabel")}
        hint={t("passwordHint")}
        autoComplete="new-password"
        required
        minLength={8}
      />
      <Field
        id="confirm"
        name="confirm"
        type="password"
        label={t("confirmLabel")}
        autoComplete="new-password"
        required
        error={mismatch ? t("mismatch") : undefined}
      />
      <p className="text-xs text-slate-500">
        <Link href="/legal/ai-privacy-policy" className="underline">
          {t("policyNote")}
        </Link>
      </p>
      <button
        type="submit"
        disabled={pending || existing.includes(role)}
        aria-busy={pending}
        className="w-full rounded-lg bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? t("creating") : t("submit")}
      </button>
    </form>
  );
}
