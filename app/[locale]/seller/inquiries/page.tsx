import { getTranslations, setRequestLocale } from "next-intl/server";
import { SellerInbox } from "@/components/trade/seller-inbox";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("SellerInquiries", "title", "/seller/inquiries", { index: false });

export default withClientMessages(
  ["ApiClient", "Buyer", "Catalog", "Common", "Negotiation", "SellerInquiries", "SellerOrderTable", "SellerOrders", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("SellerInquiries");
    return (
      <div>
        <h1 className="mb-6 text-3xl font-bold">{t("title")}</h1>
        <SellerInbox />
      </div>
    );
  },
);
