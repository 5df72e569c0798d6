"use client";

// Whether the account's e-mail address is verified: in the account menu and on the account page.
import { useTranslations } from "next-intl";

export function VerifiedBadge({ verified }: { verified: boolean }) {
  const t = useTranslations("Nav");
  return verified ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-900">
      <span aria-hidden="true">✓</span>
      {t("emailVerified")}
    </span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">{t("emailUnverified")}</span>
  );
}
