"use client";

import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { Link } from "@/lib/i18n/navigation";
import { useMe } from "./auth/use-me";
import { NotificationBell } from "./notifications/notification-bell";

/**
 * Read client-side from /api/auth/me, so pages themselves stay cacheable. Revoked sessions show
 * as signed out because the API checks the server-side session row.
 */
export function UserMenu() {
  const t = useTranslations("Nav");
  const tn = useTranslations("Negotiation");
  const me = useMe();

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
      {/* AI sessions read the count on each page without a socket: opening one is audited as chat.read. */}
      <NotificationBell live={!me.isAI} />
      {me.isAI && (
        <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900" data-testid="ai-mode-badge">
          {t("aiMode")}
        </span>
      )}
      <details className="relative">
        <summary className="cursor-pointer list-none hover:text-brand-700" data-testid="signed-in-as">
          {t("signedInAs", { username: me.username })}
        </summary>
        <ul className="absolute end-0 z-20 mt-2 w-52 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
          {(
            [
              ["/buyer", t("buyer")],
              ["/offers", tn("title")],
              ["/chat", t("chat")],
              ["/seller", t("seller")],
              ["/seller/ai-accounts", t("aiAgents")],
              ["/settings/api-keys", t("apiKeys")],
              ["/admin/fx-rates", t("fxRates")],
            ] as const
          )
            .filter(([href]) => !(me.isAI && href === "/seller/ai-accounts") && (href !== "/admin/fx-rates" || me.role === "ADMIN"))
            .map(([href, label]) => (
              <li key={href}>
                <Link href={href} className="block px-4 py-2 hover:bg-slate-50">
                  {label}
                </Link>
              </li>
            ))}
        </ul>
      </details>
      <button type="button" className="text-slate-600 underline hover:text-brand-700" onClick={() => void signOut({ callbackUrl: "/" })}>
        {t("signOut")}
      </button>
    </div>
  );
}
