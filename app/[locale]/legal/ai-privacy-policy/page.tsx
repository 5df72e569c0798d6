import type { Metadata } from "next";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";

const SECTIONS = ["logged", "who", "retention", "disclosure", "rules", "control", "contact"] as const;
const UPDATED = new Date("2026-11-21T00:00:00Z");

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "AiPolicy" });
  return { title: t("title"), description: t("intro"), alternates: alternates(locale, "/legal/ai-privacy-policy") };
}

export default async function AiPrivacyPolicyPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("AiPolicy");
  const format = await getFormatter();
  return (
    <article className="mx-auto max-w-3xl rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="text-3xl font-bold">{t("title")}</h1>
      <p className="mt-2 text-sm text-slate-500">{t("updated", { date: format.dateTime(UPDATED, { dateStyle: "long" }) })}</p>
      <p className="mt-6 leading-relaxed text-slate-800">{t("intro")}</p>
      {SECTIONS.map((s) => (
        <section key={s} className="mt-8">
          <h2 className="text-xl font-semibold">{t(`${s}Title`)}</h2>
          <p className="mt-2 leading-relaxed text-slate-800">{t(`${s}Body`)}</p>
        </section>
      ))}
    </article>
  );
}
