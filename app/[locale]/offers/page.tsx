import { getTranslations, setRequestLocale } from "next-intl/server";
import { OffersList } from "@/components/negotiation/offers-list";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Negotiation", "title", "/offers", { index: false });

// /offers - the caller's negotiations, as buyer and as store
export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Negotiation", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Negotiation");
    return (
      <div>
        <h1 className="mb-4 text-3xl font-bold">{t("title")}</h1>
        <OffersList />
      </div>
    );
  },
);
