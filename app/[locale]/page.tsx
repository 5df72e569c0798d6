import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import type { Locale } from "@/lib/i18n/locales";
import { categoryTree } from "@/lib/services/catalog/categories";
import { currentExhibitions } from "@/lib/services/catalog/exhibitions";

// Reads live data; rendered per request (the database is not reachable at build time).
export const dynamic = "force-dynamic";

export default async function HomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Home");
  const format = await getFormatter();
  const db = await getDb();
  const [tree, exhibitions] = await Promise.all([categoryTree(db, locale), currentExhibitions(db)]);

  return (
    <div className="space-y-12">
      <section className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 px-6 py-12 text-white sm:px-10">
        <h1 className="max-w-3xl text-3xl font-bold sm:text-4xl">{t("heroTitle")}</h1>
        <p className="mt-4 max-w-2xl text-lg text-brand-100">{t("heroSubtitle")}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link href="/register" className="rounded-lg bg-white px-5 py-2.5 font-semibold text-brand-700 hover:bg-brand-50">
            {t("ctaRegister")}
          </Link>
          <Link href="/api-docs" className="rounded-lg border border-white/60 px-5 py-2.5 font-semibold hover:bg-white/10">
            {t("ctaApi")}
          </Link>
        </div>
      </section>

      <section aria-labelledby="exhibitions-title">
        <h2 id="exhibitions-title" className="text-2xl font-semibold">
          {t("exhibitionsTitle")}
        </h2>
        {exhibitions.length === 0 ? (
          <p className="mt-4 text-slate-600">{t("exhibitionsEmpty")}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {exhibitions.map((e) => (
              <li key={e.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="exhibition-card">
                <div className="flex items-start justify-between gap-3">
                  <h3 className="text-lg font-semibold">{e.name}</h3>
                  <span
                    className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${
                      e.status === "ongoing" ? "bg-green-100 text-green-800" : "bg-sky-100 text-sky-800"
                    }`}
                  >
                    {t(`status.${e.status}`)}
                  </span>
                </div>
                <p className="mt-2 text-sm text-slate-600">{e.description}</p>
                <p className="mt-3 text-sm text-slate-700">
                  {t("dateRange", {
                    start: format.dateTime(new Date(e.startsAt), { dateStyle: "medium" }),
                    end: format.dateTime(new Date(e.endsAt), { dateStyle: "medium" }),
                  })}
                </p>
                {e.venue && <p className="text-sm text-slate-500">{t("venue", { venue: e.venue })}</p>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="categories-title">
        <h2 id="categories-title" className="text-2xl font-semibold">
          {t("categoriesTitle")}
        </h2>
        {tree.length === 0 ? (
          <p className="mt-4 text-slate-600">{t("categoriesEmpty")}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {tree.map((c) => (
              <li key={c.id} className="rounded-xl border border-slate-200 bg-white p-5" data-testid="category-card">
                <h3 className="font-semibold">{c.name}</h3>
                <p className="text-xs text-slate-500">{t("subcategoryCount", { count: c.children.length })}</p>
                <ul className="mt-2 space-y-1 text-sm text-slate-700">
                  {c.children.map((child) => (
                    <li key={child.id}>{child.name}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
