import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ExhibitionCard } from "@/components/catalog/exhibition-card";
import { getDb } from "@/lib/db/client";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { listExhibitions } from "@/lib/services/catalog/exhibitions";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: "Exhibitions" });
  return { title: t("title"), description: t("subtitle"), alternates: alternates(locale, "/exhibitions") };
}

export default async function ExhibitionsPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Exhibitions");
  const db = await getDb();
  const [current, past] = await Promise.all([
    listExhibitions(db, { status: "current", page: 1, limit: 100 }),
    listExhibitions(db, { status: "past", page: 1, limit: 20 }),
  ]);
  return (
    <div className="space-y-10">
      <header>
        <h1 className="text-3xl font-bold">{t("title")}</h1>
        <p className="mt-2 text-slate-600">{t("subtitle")}</p>
      </header>
      {[
        { key: "current", title: t("current"), items: current.exhibitions },
        { key: "past", title: t("past"), items: past.exhibitions },
      ].map((group) => (
        <section key={group.key} aria-labelledby={`ex-${group.key}`}>
          <h2 id={`ex-${group.key}`} className="text-xl font-semibold">
            {group.title}
          </h2>
          {group.items.length === 0 ? (
            <p className="mt-3 text-slate-600">{t("empty")}</p>
          ) : (
            <ul className="mt-4 grid gap-4 sm:grid-cols-2">
              {group.items.map((e) => (
                <ExhibitionCard key={e.id} e={e} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
