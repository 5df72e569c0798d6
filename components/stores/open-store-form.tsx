"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import { uploadFile } from "@/components/lib/upload";
import { Field, FormAlert } from "@/components/ui/field";
import { localizedPath, type Locale } from "@/lib/i18n/locales";

/** Opening a store in one step: the profile first, then the logo on it (an upload of type `logo`). */
export function OpenStoreForm() {
  const t = useTranslations("Stores");
  const locale = useLocale() as Locale;
  const [logo, setLogo] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();

  const problemText = (p: Problem) =>
    p.status === 0
      ? t("errors.network")
      : p.status === 429
        ? t("errors.rateLimited", { seconds: p.retryAfter ?? 60 })
        : p.status === 409
          ? t("errors.exists")
          : t("errors.generic");

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const companyName = String(form.get("companyName") ?? "").trim();
    if (!companyName) {
      setNameError(t("errors.nameRequired"));
      return;
    }
    setNameError(undefined);
    setAlert(null);
    setPending(true);
    const opened = await apiFetch("/api/seller/profile", {
      json: {
        companyName,
        country: String(form.get("country") ?? "").trim() || null,
        description: String(form.get("description") ?? "").trim() || null,
      },
    });
    if (!opened.ok && opened.problem.status !== 409) {
      setAlert(problemText(opened.problem));
      setPending(false);
      return;
    }
    if (logo) {
      try {
        await uploadFile(logo, "logo", setProgress);
      } catch (err) {
        // The store exists; the logo can be added in the settings. Say so rather than hide it.
        setAlert(t("errors.logo", { detail: (err as Error).message }));
        setPending(false);
        return;
      }
    }
    window.location.assign(localizedPath(locale, "/seller"));
  }

  return (
    <form onSubmit={onSubmit} className="mt-4 space-y-4" noValidate data-testid="open-store-form">
      {alert && <FormAlert>{alert}</FormAlert>}
      <Field id="companyName" name="companyName" label={t("companyName")} autoComplete="organization" required maxLength={200} error={nameError} />
      <Field id="store-country" name="country" label={t("country")} autoComplete="country-name" maxLength={100} optionalLabel={t("optional")} />
      <div>
        <label htmlFor="store-logo" className="block text-sm font-medium text-slate-800">
          {t("logo")} <span className="ms-1 font-normal text-slate-500">({t("optional")})</span>
        </label>
        <div className="mt-1 flex items-center gap-3">
          {preview && (
            // eslint-disable-next-line @next/next/no-img-element -- a local preview (blob: URL)
            <img src={preview} alt="" className="h-16 w-16 rounded-lg border border-slate-200 object-contain p-1" />
          )}
          <input
            id="store-logo"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby="store-logo-hint"
            className="block w-full min-w-0 text-sm"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0] ?? null;
              setLogo(file);
              setPreview(file ? URL.createObjectURL(file) : null);
            }}
          />
        </div>
        <p id="store-logo-hint" className="mt-1 text-xs text-slate-500">
          {t("logoHint")}
        </p>
        {progress !== null && <progress className="mt-2 w-full" value={progress} max={100} aria-label={t("uploading")} />}
      </div>
      <div>
        <label htmlFor="store-description" className="block text-sm font-medium text-slate-800">
          {t("description")} <span className="ms-1 font-normal text-slate-500">({t("optional")})</span>
        </label>
        <textarea
          id="store-description"
          name="description"
          dir="auto"
          rows={3}
          maxLength={10000}
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2"
        />
      </div>
      <button type="submit" disabled={pending} className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white disabled:opacity-60">
        {pending ? t("opening") : t("open")}
      </button>
    </form>
  );
}
