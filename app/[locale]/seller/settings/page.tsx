import { getTranslations, setRequestLocale } from "next-intl/server";
import { StoreSettings } from "@/components/seller/settings-form";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Settings", "title", "/seller/settings", { index: false });

export default withClientMessages(["ApiClient", "Common", "Settings", "Upload"], async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Settings");
  return (
    <div>
      <h1 className="mb-6 text-3xl font-bold">{t("title")}</h1>
      <StoreSettings />
    </div>
  );
});
