import { getTranslations, setRequestLocale } from "next-intl/server";
import { RequirementsBoard } from "@/components/rfq/requirements-board";
import type { Locale } from "@/lib/i18n/locales";
import { simpleMetadata } from "@/lib/i18n/page-metadata";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const generateMetadata = simpleMetadata("Rfq", "title", "/seller/requirements", { index: false });

export default withClientMessages(
  ["ApiClient", "Catalog", "Common", "Negotiation", "Rfq", "Status"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("Rfq");
    return (
      <div>
        <h1 className="mb-2 text-3xl font-bold">{t("title")}</h1>
        <p className="mb-6 text-slate-600">{t("intro")}</p>
        <RequirementsBoard />
      </div>
    );
  },
);
