import { getTranslations, setRequestLocale } from "next-intl/server";
import { FxRatesAdmin } from "@/components/admin/fx-rates-form";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("AdminFxRates", "title", "/admin/fx-rates", { index: false });

export default withClientMessages(["AdminFxRates", "ApiClient", "Common"], async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("AdminFxRates");
  return (
    <div>
      <h1 className="text-3xl font-bold">{t("title")}</h1>
      <p className="mb-6 mt-2 text-slate-600">{t("subtitle")}</p>
      <FxRatesAdmin />
    </div>
  );
});
