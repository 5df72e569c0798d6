import { getTranslations, setRequestLocale } from "next-intl/server";
import { NotificationsList } from "@/components/notifications/notifications-list";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Notifications", "title", "/notifications", { index: false });

export default withClientMessages(["ApiClient", "Common", "Notifications"], async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Notifications");
  return (
    <div>
      <h1 className="mb-4 text-3xl font-bold">{t("title")}</h1>
      <NotificationsList />
    </div>
  );
});
