"use client";

import { useTranslations } from "next-intl";
import { Link } from "@/lib/i18n/navigation";

/** From a quoted inquiry reply to the offer thread it opened. */
export function NegotiateLink({ offerId }: { offerId: string }) {
  const t = useTranslations("Negotiation");
  return (
    <Link href={`/offers/${offerId}`} className="mt-1 inline-block font-medium text-brand-700 underline" data-testid="negotiate-link">
      {t("negotiate")}
    </Link>
  );
}
