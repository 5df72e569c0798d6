import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { QuoteComparison } from "@/components/rfq/quote-comparison";
import type { Locale } from "@/lib/i18n/locales";
import { withClientMessages } from "@/lib/i18n/client-messages";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "Rfq" });
  // Private to the buyer: no alternates, never indexed.
  return { title: t("compareTitle"), robots: { index: false } };
}

export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Negotiation", "Rfq", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale; id: string }> }) {
    const { locale, id } = await params;
    setRequestLocale(locale);
    return <QuoteComparison id={id} />;
  },
);
