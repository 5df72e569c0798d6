"use client";

import { signIn } from "next-auth/react";
import { useLocale, useTranslations } from "next-intl";
import { Suspense, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { Field, FormAlert } from "@/components/ui/field";
import { Link } from "@/lib/i18n/navigation";
import { CreateAccountBody } from "@/lib/schemas/accounts";
import { Spinner } from "@/components/ui/spinner";
import { afterSignIn, localPath } from "./after-sign-in";
import { AuthSwitchLink } from "./auth-switch-link";

type Errors = Partial<Record<"email" | "username" | "password" | "companyName" | "country", string>>;

export function RegisterForm() {
  const t = useTranslations("Auth");
  const locale = useLocale();
  const [role, setRole] = useState<"BUYER" | "SELLER">("BUYER");
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [alert, setAlert] = useState<string | null>(null);

  // Field errors in the reader's language: the hint of the field that failed.
  const fieldMessage = (path: string): string => (path === "username" ? t("usernameHint") : path === "password" ? t("passwordHint") : t("errors.invalid"));

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const input = {
      email: String(form.get("email") ?? ""),
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      role,
      companyName: String(form.get("companyName") ?? "").trim() || undefined,
      country: String(form.get("country") ?? "").trim() || undefined,
      locale,
    };
    const parsed = CreateAccountBody.safeParse(input);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof Errors] ??= fieldMessage(String(issue.path[0]));
      setErrors(next);
      setAlert(t("errors.invalid"));
      return;
    }
    setPending(true);
    setErrors({});
    setAlert(null);
    const res = await apiFetch("/api/accounts/create", { json: parsed.data });
    if (!res.ok) {
      const problem = res.problem;
      if (problem.code === "username_taken") setErrors({ username: t("errors.usernameTaken") });
      else if (problem.code === "email_taken") setErrors({ email: t("errors.emailTaken") });
      else if (problem.errors?.length) setErrors(Object.fromEntries(problem.errors.map((er) => [er.path, fieldMessage(er.path)])));
      // 429, 503 and network failures say when to try again (components/lib/api-client.ts).
      const said = problem.status === 0 || problem.status === 429 || problem.status === 503;
      setAlert(
        said
          ? problem.detail
          : problem.code === "validation_failed"
            ? t("errors.invalid")
            : problem.code === "username_taken" || problem.code === "email_taken"
              ? null
              : t("errors.generic"),
      );
      setPending(false);
      return;
    }
    try {
      const signedIn = await signIn("credentials", { email: input.username, password: input.password, redirect: false });
      if (!signedIn?.ok || signedIn.error) {
        window.location.assign(locale === "en" ? "/sign-in" : `/${locale}/sign-in`);
        return;
      }
      // Back to the page that sent the visitor here (a product, a store), read at submit as the sign-in
      // form does; otherwise a new account starts on its checklist (first steps), not the home page.
      await afterSignIn(localPath(new URLSearchParams(window.location.search).get("callbackUrl") ?? undefined) ?? "/welcome");
    } catch {
      setAlert(t("errors.network"));
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      {alert && <FormAlert>{alert}</FormAlert>}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t("roleLabel")}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {(["BUYER", "SELLER"] as const).map((r) => (
            <label
              key={r}
              className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm ${role === r ? "border-brand-600 bg-brand-50" : "border-slate-300"}`}
            >
              <input type="radio" name="role" value={r} checked={role === r} onChange={() => setRole(r)} />
              {r === "BUYER" ? t("roleBuyer") : t("roleSeller")}
            </label>
          ))}
        </div>
      </fieldset>
      <Field id="email" name="email" type="email" label={t("emailLabel")} autoComplete="email" required error={errors.email} />
      <Field id="username" name="username" label={t("usernameLabel")} hint={t("usernameHint")} autoComplete="username" required error={errors.username} />
      <Field
        id="password"
        name="password"
        type="password"
        label={t("passwordLabel")}
        hint={t("passwordHint")}
        autoComplete="new-password"
        required
        error={errors.password}
      />
      {role === "SELLER" && <Field id="companyName" name="companyName" label={t("companyLabel")} autoComplete="organization" error={errors.companyName} />}
      <Field id="country" name="country" label={t("countryLabel")} optionalLabel={t("optional")} autoComplete="country-name" error={errors.country} />
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending && <Spinner />}
        {pending ? t("registering") : t("submitRegister")}
      </button>
      <p className="text-center text-sm text-slate-600">
        {t("haveAccount")}{" "}
        <Suspense
          fallback={
            <Link href="/sign-in" className="font-medium text-brand-700 underline">
              {t("signInLink")}
            </Link>
          }
        >
          <AuthSwitchLink to="/sign-in">{t("signInLink")}</AuthSwitchLink>
        </Suspense>
      </p>
    </form>
  );
}
