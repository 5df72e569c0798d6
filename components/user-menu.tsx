"use client";

import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Link } from "@/lib/i18n/navigation";

type Me = { id: string; username: string; role: string; isAI: boolean } | null;

/**
 * Read client-side from /api/auth/me, so pages themselves stay cacheable. Revoked sessions show
 * as signed out because the API checks the server-side session row.
 */
export function UserMenu() {
  const t = useTranslations("Nav");
  const [me, setMe] = useState<Me | undefined>(undefined);
  useEffect(() => {
    let cancelled = false;
    fetch("/api/auth/me", { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? (r.json() as Promise<{ user: Me }>) : { user: null }))
      .then((d) => !cancelled && setMe(d.user))
      .catch(() => !cancelled && setMe(null));
    return () => {
      cancelled = true;
    };
  }, []);

  if (me === undefined) {
    return (
      <span className="text-sm text-slate-400" aria-live="polite">
        {t("loading")}
      </span>
    );
  }
  if (!me) {
    return (
      <div className="flex items-center gap-3 text-sm">
        <Link href="/sign-in" className="hover:text-brand-700">
          {t("signIn")}
        </Link>
        <Link href="/register" className="rounded bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700">
          {t("register")}
        </Link>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="user-menu">
      {me.isAI && (
        <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900" data-testid="ai-mode-badge">
          {t("aiMode")}
        </span>
      )}
      <span data-testid="signed-in-as">{t("signedInAs", { username: me.username })}</span>
      <button type="button" className="text-slate-600 underline hover:text-brand-700" onClick={() => void signOut({ callbackUrl: "/" })}>
        {t("signOut")}
      </button>
    </div>
  );
}
