import { getTranslations, setRequestLocale } from "next-intl/server";
import { BoothsManager } from "@/components/seller/booths-manager";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("SellerBooths", "title", "/seller/booths", { index: false });

export default withClientMessages(
  ["ApiClient", "Common", "Flows", "Seller", "SellerBooths", "SellerProducts", "Upload"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("SellerBooths");
    return (
      <div>
        <h1 className="mb-6 text-3xl font-bold">{t("title")}</h1>
        <BoothsManager />
      </div>
    );
  },
);
