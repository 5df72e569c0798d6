import { getTranslations, setRequestLocale } from "next-intl/server";
import { ThreadView } from "@/components/negotiation/thread-view";
import type { Locale } from "@/lib/i18n/locales";
import { alternates } from "@/lib/i18n/metadata";
import { Link } from "@/lib/i18n/navigation";
import { withClientMessages } from "@/lib/i18n/client-messages";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale; id: string }> }) {
  const { locale, id } = await params;
  const t = await getTranslations({ locale, namespace: "Negotiation" });
  return { title: t("threadTitle"), alternates: alternates(locale, `/offers/${id}`), robots: { index: false } };
}

// /offers/[id] - one negotiation, live
export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Negotiation", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale; id: string }> }) {
    const { locale, id } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Negotiation");
    return (
      <div>
        <Link href="/offers" className="text-sm text-brand-700 underline">
          {t("backToList")}
        </Link>
        <h1 className="mb-4 mt-2 text-3xl font-bold">{t("threadTitle")}</h1>
        <ThreadView offerId={id} />
      </div>
    );
  },
);
