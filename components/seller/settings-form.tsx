"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { UploadButton } from "./upload-button";

type S = {
  companyName: string;
  description: string | null;
  country: string | null;
  website: string | null;
  contactEmail: string | null;
  phone: string | null;
  logoUrl: string | null;
  bannerUrl: string | null;
  isPublic: boolean;
};

export function StoreSettings() {
  return <SignInGate>{() => <SettingsForm />}</SignInGate>;
}

function SettingsForm() {
  const t = useTranslations("Settings");
  const tc = useTranslations("Common");
  const [s, setS] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    void apiFetch<{ settings: S }>("/api/seller/settings").then((r) => (r.ok ? setS(r.data.settings) : setError(r.problem.detail)));
  }, []);
  if (!s) return error ? <FormAlert>{error}</FormAlert> : <p className="text-slate-500">{tc("loading")}</p>;
  const set = <K extends keyof S>(k: K, v: S[K]) => setS((x) => (x ? { ...x, [k]: v } : x));
  const nul = (v: string) => (v.trim() === "" ? null : v);

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!s) return;
    setPending(true);
    setSaved(false);
    setError(null);
    const r = await apiFetch<{ settings: S }>("/api/seller/settings", { method: "PUT", json: s });
    setPending(false);
    if (!r.ok) return setError(r.problem.errors?.map((x) => `${x.path}: ${x.message}`).join("; ") || r.problem.detail);
    setS(r.data.settings);
    setSaved(true);
  }

  const input = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2";
  return (
    <form onSubmit={save} className="max-w-2xl space-y-4 rounded-xl border border-slate-200 bg-white p-6" data-testid="settings-form">
      {error && <FormAlert>{error}</FormAlert>}
      <label className="block text-sm font-medium">
        {t("company")}
        <input
          required
          maxLength={200}
          value={s.companyName}
          onChange={(e) => set("companyName", e.target.value)}
          className={input}
          name="companyName"
          dir="auto"
        />
      </label>
      <label className="block text-sm font-medium">
        {t("description")}
        <textarea
          rows={4}
          maxLength={10000}
          value={s.description ?? ""}
          onChange={(e) => set("description", nul(e.target.value))}
          className={input}
          name="description"
          dir="auto"
        />
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block text-sm font-medium">
          {t("country")}
          <input maxLength={100} value={s.country ?? ""} onChange={(e) => set("country", nul(e.target.value))} className={input} name="country" dir="auto" />
        </label>
        <label className="block text-sm font-medium">
          {t("website")}
          <input
            type="url"
            maxLength={2048}
            value={s.website ?? ""}
            onChange={(e) => set("website", nul(e.target.value))}
            className={input}
            name="website"
            placeholder="https://"
            dir="ltr"
          />
        </label>
        <label className="block text-sm font-medium">
          {t("contactEmail")}
          <input
            type="email"
            value={s.contactEmail ?? ""}
            onChange={(e) => set("contactEmail", nul(e.target.value))}
            className={input}
            name="contactEmail"
            dir="ltr"
          />
        </label>
        <label className="block text-sm font-medium">
          {t("phone")}
          <input type="tel" maxLength={50} value={s.phone ?? ""} onChange={(e) => set("phone", nul(e.target.value))} className={input} name="phone" dir="ltr" />
        </label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <p className="text-sm font-medium">{t("logo")}</p>
          {s.logoUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- user upload
            <img src={s.logoUrl} alt="" className="my-2 h-16 w-16 rounded border border-slate-200 object-contain" />
          )}
          <UploadButton type="boothLogo" accept="image/png,image/jpeg,image/webp,image/gif" label={t("logo")} onUploaded={(u) => set("logoUrl", u.url)} />
        </div>
        <div>
          <p className="text-sm font-medium">{t("banner")}</p>
          {s.bannerUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- user upload
            <img src={s.bannerUrl} alt="" className="my-2 h-16 w-full rounded border border-slate-200 object-cover" />
          )}
          <UploadButton type="boothBanner" accept="image/png,image/jpeg,image/webp,image/gif" label={t("banner")} onUploaded={(u) => set("bannerUrl", u.url)} />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={s.isPublic} onChange={(e) => set("isPublic", e.target.checked)} name="isPublic" />
        {t("public")}
      </label>
      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded-lg bg-brand-600 px-5 py-2 font-semibold text-white disabled:opacity-60">
          {pending ? t("saving") : t("save")}
        </button>
        {saved && (
          <span role="status" className="text-sm text-green-700">
            {t("saved")}
          </span>
        )}
      </div>
    </form>
  );
}
