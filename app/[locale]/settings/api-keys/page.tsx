import { getTranslations, setRequestLocale } from "next-intl/server";
import { ApiKeys } from "@/components/community/api-keys";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("ApiKeys", "title", "/settings/api-keys", { index: false });

export default withClientMessages(["ApiClient", "ApiKeys", "Common"], async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("ApiKeys");
  return (
    <div>
      <h1 className="text-3xl font-bold">{t("title")}</h1>
      <p className="mb-6 mt-2 text-slate-600">{t("subtitle")}</p>
      <ApiKeys />
    </div>
  );
});
