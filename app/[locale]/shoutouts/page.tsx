import { getTranslations, setRequestLocale } from "next-intl/server";
import { ShoutoutFeed } from "@/components/community/shoutout-feed";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";

export const generateMetadata = simpleMetadata("Shoutouts", "title", "/shoutouts");

export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Shoutouts");
  return (
    <div>
      <header className="mx-auto mb-6 max-w-2xl">
        <h1 className="text-3xl font-bold">{t("title")}</h1>
        <p className="mt-2 text-slate-600">{t("subtitle")}</p>
      </header>
      <ShoutoutFeed />
    </div>
  );
}
