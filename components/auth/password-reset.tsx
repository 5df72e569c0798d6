"use client";

// The forgotten-password pages and the e-mail verification landing: the token comes from the
// address (?token=...) at run time, so the pages themselves stay static.
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import { Field, FormAlert } from "@/components/ui/field";
import { Link } from "@/lib/i18n/navigation";

type T = ReturnType<typeof useTranslations<"PasswordReset">>;

const tokenFromAddress = () => new URLSearchParams(window.location.search).get("token") ?? "";

/** The sentence for a refusal: the link's state, the rate limit with when to retry, or the network. */
export function problemText(t: T, p: Problem): string {
  if (p.code === "token_invalid" || p.code === "token_expired" || p.code === "token_used") return t(`errors.${p.code}`);
  if (p.status === 429) return t("errors.rateLimited", { seconds: p.retryAfter ?? 60 });
  if (p.status === 0) return t("errors.network");
  if (p.code === "validation_failed") return t("errors.invalid");
  return t("errors.generic");
}

const button = "w-full rounded-lg bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60";

function Done({ children }: { children: React.ReactNode }) {
  return (
    <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
      {children}
    </div>
  );
}

export function ForgotPasswordForm() {
  const t = useTranslations("PasswordReset");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim();
    setPending(true);
    setError(null);
    const res = await apiFetch("/api/auth/password-reset", { json: { email } });
    setPending(false);
    if (res.ok) setSentTo(email);
    else setError(problemText(t, res.problem));
  }

  if (sentTo)
    return (
      <Done>
        <p>{t("sent", { email: sentTo })}</p>
        <p className="mt-2">
          <Link href="/sign-in" className="font-medium underline">
            {t("backToSignIn")}
          </Link>
        </p>
      </Done>
    );
  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      {error && <FormAlert>{error}</FormAlert>}
      <Field id="email" name="email" type="email" label={t("emailLabel")} hint={t("emailHint")} autoComplete="email" required dir="ltr" />
      <button type="submit" disabled={pending} aria-busy={pending} className={button}>
        {pending ? t("sending") : t("send")}
      </button>
      <p className="text-center text-sm text-slate-600">
        <Link href="/sign-in" className="font-medium text-brand-700 underline">
          {t("backToSignIn")}
        </Link>
      </p>
    </form>
  );
}

export function ResetPasswordForm() {
  const t = useTranslations("PasswordReset");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [done, setDone] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    setError(null);
    setFieldError(undefined);
    if (password.length < 8) return setFieldError(t("passwordHint"));
    if (password !== String(form.get("confirm") ?? "")) return setFieldError(t("mismatch"));
    setPending(true);
    const res = await apiFetch("/api/auth/password-reset/confirm", { json: { token: tokenFromAddress(), password } });
    setPending(false);
    if (res.ok) setDone(true);
    else setError(problemText(t, res.problem));
  }

  if (done)
    return (
      <Done>
        <p>{t("resetDone")}</p>
        <p className="mt-2">
          <Link href="/sign-in" className="font-medium underline">
            {t("signInNow")}
          </Link>
        </p>
      </Done>
    );
  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      {error && (
        <FormAlert>
          {error}{" "}
          <Link href="/forgot-password" className="font-medium underline">
            {t("askAgain")}
          </Link>
        </FormAlert>
      )}
      <Field
        id="password"
        name="password"
        type="password"
        label={t("newPassword")}
        hint={t("passwordHint")}
        autoComplete="new-password"
        minLength={8}
        maxLength={128}
        required
        error={fieldError}
      />
      <Field id="confirm" name="confirm" type="password" label={t("confirmPassword")} autoComplete="new-password" required />
      <button type="submit" disabled={pending} aria-busy={pending} className={button}>
        {pending ? t("saving") : t("save")}
      </button>
    </form>
  );
}

export function VerifyEmail() {
  const t = useTranslations("PasswordReset");
  const [state, setState] = useState<{ kind: "working" } | { kind: "done"; email: string } | { kind: "failed"; text: string }>({ kind: "working" });
  const started = useRef(false);

  useEffect(() => {
    // Once per page: React's development double effect must not spend the single-use link twice.
    if (started.current) return;
    started.current = true;
    void apiFetch<{ email: string }>("/api/auth/verify-email", { json: { token: tokenFromAddress() } }).then((res) =>
      setState(res.ok ? { kind: "done", email: res.data.email } : { kind: "failed", text: problemText(t, res.problem) }),
    );
  }, [t]);

  if (state.kind === "working")
    return (
      <p role="status" aria-busy="true" className="text-slate-600">
        {t("verifying")}
      </p>
    );
  if (state.kind === "done")
    return (
      <Done>
        <p>{t("verified", { email: state.email })}</p>
        <p className="mt-2">
          <Link href="/settings" className="font-medium underline">
            {t("toAccount")}
          </Link>
        </p>
      </Done>
    );
  return (
    <FormAlert>
      {state.text}{" "}
      <Link href="/settings" className="font-medium underline">
        {t("resendFromAccount")}
      </Link>
    </FormAlert>
  );
}
