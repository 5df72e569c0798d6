"use client";

// The account page's e-mail block: the address, whether it is verified, and "resend the link".
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { Link } from "@/lib/i18n/navigation";
import { problemText } from "./password-reset";
import { VerifiedBadge } from "./verified-badge";

type Me = { user: { email: string; username: string; isAI: boolean; emailVerified: boolean } | null };

export function AccountEmail() {
  const t = useTranslations("PasswordReset");
  const [me, setMe] = useState<Me["user"] | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    void apiFetch<Me>("/api/auth/me").then((res) => (res.ok ? setMe(res.data.user) : setLoadError(problemText(t, res.problem))));
  }, [t]);

  async function resend() {
    setPending(true);
    setMessage(null);
    const res = await apiFetch<{ sent: boolean }>("/api/auth/verify-email/resend", { method: "POST" });
    setPending(false);
    setMessage(res.ok ? { ok: true, text: t("resent") } : { ok: false, text: problemText(t, res.problem) });
  }

  if (loadError) return <FormAlert>{loadError}</FormAlert>;
  if (me === undefined)
    return (
      <p role="status" className="text-slate-600">
        {t("loading")}
      </p>
    );
  if (me === null)
    return (
      <p>
        <Link href="/sign-in?callbackUrl=/settings" className="font-medium text-brand-700 underline">
          {t("signInNow")}
        </Link>
      </p>
    );
  return (
    <section aria-labelledby="account-email" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="account-email" className="text-lg font-semibold">
        {t("emailSection")}
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <bdi dir="ltr" className="break-all font-medium">
          {me.email}
        </bdi>
        {!me.isAI && <VerifiedBadge verified={me.emailVerified} />}
      </div>
      {me.isAI ? (
        <p className="mt-3 text-sm text-slate-600">{t("aiNoEmail")}</p>
      ) : (
        !me.emailVerified && (
          <div className="mt-4 space-y-3">
            <p className="text-sm text-slate-600">{t("unverifiedHint")}</p>
            <button
              type="button"
              onClick={resend}
              disabled={pending}
              aria-busy={pending}
              className="rounded-lg border border-brand-600 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
            >
              {pending ? t("sending") : t("resend")}
            </button>
            {message &&
              (message.ok ? (
                <p role="status" className="text-sm text-emerald-800">
                  {message.text}
                </p>
              ) : (
                <FormAlert>{message.text}</FormAlert>
              ))}
          </div>
        )
      )}
      <p className="mt-6 text-sm">
        <Link href="/settings/api-keys" className="text-brand-700 underline">
          {t("apiKeysLink")}
        </Link>
      </p>
    </section>
  );
}
