import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { SellerDashboard } from "@/components/seller/seller-dashboard";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { withClientMessages } from "@/lib/i18n/client-messages";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "Seller" });
  return { title: t("title"), alternates: alternates(locale, "/seller"), robots: { index: false } };
}

export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Dashboard", "Rfq", "Seller", "SellerInquiries", "SellerOrders", "Settings", "Status", "Stores"],
  async function SellerPage({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Seller");
    return (
      <div>
        <h1 className="mb-6 text-3xl font-bold">{t("title")}</h1>
        <SellerDashboard />
      </div>
    );
  },
);
