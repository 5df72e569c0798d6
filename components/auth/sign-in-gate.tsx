"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Link, usePathname } from "@/lib/i18n/navigation";
import { useMe, type Me } from "./use-me";

/**
 * Renders its children with the signed-in account; a sign-in prompt when signed out, and (with
 * `humansOnly`) a notice for AI accounts, which cannot use guardian pages.
 */
export function SignInGate({ children, humansOnly = false }: { children: (me: NonNullable<Me>) => ReactNode; humansOnly?: boolean }) {
  const t = useTranslations("Common");
  const me = useMe();
  const pathname = usePathname();
  if (me === undefined) {
    return (
      <p className="py-12 text-center text-slate-500" aria-live="polite" aria-busy="true">
        {t("loading")}
      </p>
    );
  }
  if (me === null) {
    return (
      <div className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center" data-testid="sign-in-required">
        <p>{t("signInRequired")}</p>
        <Link
          href={{ pathname: "/sign-in", query: { callbackUrl: pathname } }}
          className="mt-4 inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white"
        >
          {t("signInToContinue")}
        </Link>
      </div>
    );
  }
  if (humansOnly && me.isAI) {
    return <p className="mx-auto max-w-md rounded-xl border border-amber-200 bg-amber-50 p-6 text-amber-900">{t("humanOnly")}</p>;
  }
  return <>{children(me)}</>;
}
