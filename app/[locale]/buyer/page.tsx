import { Suspense } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { BuyerArea } from "@/components/trade/buyer-area";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Buyer", "title", "/buyer", { index: false });

export default withClientMessages(
  ["ApiClient", "Buyer", "Catalog", "Common", "Negotiation", "Rfq", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Buyer");
    return (
      <div>
        <h1 className="mb-6 text-3xl font-bold">{t("title")}</h1>
        <Suspense>
          <BuyerArea />
        </Suspense>
      </div>
    );
  },
);
