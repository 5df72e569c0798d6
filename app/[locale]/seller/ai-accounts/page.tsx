import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { AiAccountsPage } from "@/components/ai/ai-accounts-manager";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { withClientMessages } from "@/lib/i18n/client-messages";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "AiAccounts" });
  return { title: t("title"), alternates: alternates(locale, "/seller/ai-accounts"), robots: { index: false } };
}

export default withClientMessages(
  ["AiAccounts", "AiPassword", "ApiClient", "AuditView", "Common", "Flows", "Permissions"],
  async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    const t = await getTranslations("AiAccounts");
    return (
      <div>
        <h1 className="text-3xl font-bold">{t("title")}</h1>
        <p className="mb-8 mt-2 text-slate-600">{t("subtitle")}</p>
        <AiAccountsPage />
      </div>
    );
  },
);
