import { getTranslations, setRequestLocale } from "next-intl/server";
import { WelcomeChecklist } from "@/components/stores/welcome-checklist";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Welcome", "title", "/welcome", { index: false });

export default withClientMessages(["ApiClient", "Common", "Welcome"], async function WelcomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Welcome");
  return (
    <div>
      <h1 className="mb-6 text-3xl font-bold">{t("title")}</h1>
      <WelcomeChecklist />
    </div>
  );
});
