import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { AiRegister } from "@/components/ai/ai-register";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { withClientMessages } from "@/lib/i18n/client-messages";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "AiRegister" });
  return { title: t("title"), description: t("subtitle"), alternates: alternates(locale, "/ai-register"), robots: { index: false } };
}

export default withClientMessages(["AiRegister", "ApiClient", "Common"], async function AiRegisterPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("AiRegister");
  return (
    <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="text-2xl font-bold">{t("title")}</h1>
      <p className="mb-6 mt-2 text-slate-600">{t("subtitle")}</p>
      <AiRegister />
    </div>
  );
});
