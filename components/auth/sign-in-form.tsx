"use client";

import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { Suspense, useState, type FormEvent } from "react";
import { Field, FormAlert } from "@/components/ui/field";
import { Link } from "@/lib/i18n/navigation";
import { afterSignIn } from "./after-sign-in";
import { AuthSwitchLink } from "./auth-switch-link";

/** The page is static (prerendered per locale): `callbackUrl` is read from the address at submit. */
export function SignInForm() {
  const t = useTranslations("Auth");
  const tr = useTranslations("PasswordReset");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      });
      if (!res || res.error || !res.ok) {
        // "rate_limited": the brute-force brake (lib/services/auth/throttle.ts) holds this account or address.
        // "account_disabled": the password was right but the account (an agent's, by its guardian) is off.
        setError(res?.error === "rate_limited" ? t("tooManyAttempts") : res?.error === "account_disabled" ? tr("accountDisabled") : t("badCredentials"));
        setPending(false);
        return;
      }
      await afterSignIn(new URLSearchParams(window.location.search).get("callbackUrl") ?? undefined);
    } catch {
      setError(t("errors.network"));
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      {error && <FormAlert>{error}</FormAlert>}
      <Field id="email" name="email" label={t("identifierLabel")} hint={t("identifierHint")} autoComplete="username" required />
      <Field id="password" name="password" type="password" label={t("passwordLabel")} autoComplete="current-password" required />
      <p className="-mt-2 text-end text-sm">
        <Link href="/forgot-password" className="font-medium text-brand-700 underline">
          {tr("forgotLink")}
        </Link>
      </p>
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="w-full rounded-lg bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? t("signingIn") : t("submitSignIn")}
      </button>
      <p className="text-center text-sm text-slate-600">
        {t("noAccount")}{" "}
        <Suspense
          fallback={
            <Link href="/register" className="font-medium text-brand-700 underline">
              {t("registerLink")}
            </Link>
          }
        >
          <AuthSwitchLink to="/register">{t("registerLink")}</AuthSwitchLink>
        </Suspense>
      </p>
    </form>
  );
}
