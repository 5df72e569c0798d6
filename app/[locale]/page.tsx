import { getTranslations, setRequestLocale } from "next-intl/server";
import { ExhibitionCard } from "@/components/catalog/exhibition-card";
import { ProductCard } from "@/components/catalog/product-card";
import { FairSuppliers, PostRequirementCall } from "@/components/home/fair-sections";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import type { Locale } from "@/lib/i18n/locales";
import { categoryTree } from "@/lib/services/catalog/categories";
import { currentExhibitions } from "@/lib/services/catalog/exhibitions";
import { featuredProducts, newestSuppliers } from "@/lib/services/catalog/home";

// Reads live data; rendered per request (the database is not reachable at build time). Nothing here
// depends on the visitor (no session, no cookie), so the same HTML serves everyone.
export const dynamic = "force-dynamic";

export default async function HomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Home");
  const tf = await getTranslations("HomeFair");
  const db = await getDb();
  // One at a time: PGlite runs one query at a time anyway, and PostgreSQL needs no more for five reads.
  const tree = await categoryTree(db, locale);
  const exhibitions = await currentExhibitions(db);
  const featured = await featuredProducts(db, locale);
  const suppliers = await newestSuppliers(db);

  return (
    <div className="space-y-12">
      <section className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 px-6 py-12 text-white sm:px-10">
        <h1 className="max-w-3xl text-3xl font-bold sm:text-4xl">{t("heroTitle")}</h1>
        <p className="mt-4 max-w-2xl text-lg text-brand-100">{t("heroSubtitle")}</p>
        <form action={locale === "en" ? "/search" : `/${locale}/search`} method="get" role="search" className="mt-8 max-w-2xl">
          <label htmlFor="home-search" className="mb-2 block text-sm font-medium text-white">
            {t("searchLabel")}
          </label>
          <div className="flex gap-2">
            {/* A white field with dark text and placeholder: readable on the navy hero (WCAG 1.4.3). */}
            <input
              id="home-search"
              name="q"
              type="search"
              placeholder={t("searchPlaceholder")}
              className="min-w-0 flex-1 rounded-lg border border-white bg-white px-4 py-3 text-slate-900 shadow-sm placeholder:text-slate-600 focus:outline-none focus-visible:ring-4 focus-visible:ring-amber-300"
            />
            <button
              type="submit"
              className="shrink-0 rounded-lg bg-amber-400 px-5 py-3 font-semibold text-slate-900 hover:bg-amber-300 focus:outline-none focus-visible:ring-4 focus-visible:ring-white"
            >
              {t("searchButton")}
            </button>
          </div>
        </form>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link href="/register" className="rounded-lg bg-white px-5 py-2.5 font-semibold text-brand-700 hover:bg-brand-50">
            {t("ctaRegister")}
          </Link>
          <Link href="/api-docs" className="rounded-lg border border-white/60 px-5 py-2.5 font-semibold hover:bg-white/10">
            {t("ctaApi")}
          </Link>
        </div>
      </section>

      <section aria-labelledby="featured-title">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="featured-title" className="text-2xl font-semibold">
            {tf("featuredTitle")}
          </h2>
          <Link href={{ pathname: "/search", query: { sort: "newest" } }} className="text-sm text-brand-700 hover:underline">
            {tf("viewAllProducts")}
          </Link>
        </div>
        {featured.length === 0 ? (
          <p className="mt-4 text-slate-600">{tf("featuredEmpty")}</p>
        ) : (
          <ul className="mt-4 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4" data-testid="featured-products">
            {featured.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="exhibitions-title">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="exhibitions-title" className="text-2xl font-semibold">
            {t("exhibitionsTitle")}
          </h2>
          <Link href="/exhibitions" className="text-sm text-brand-700 hover:underline">
            {t("viewAllExhibitions")}
          </Link>
        </div>
        {exhibitions.length === 0 ? (
          <p className="mt-4 text-slate-600">{t("exhibitionsEmpty")}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {exhibitions.map((e) => (
              <ExhibitionCard key={e.id} e={e} />
            ))}
          </ul>
        )}
      </section>

      <FairSuppliers suppliers={suppliers} locale={locale} />
      <PostRequirementCall />

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
                <h3 className="font-semibold">
                  <Link href={{ pathname: "/search", query: { category: c.id } }} className="hover:text-brand-700">
                    {c.name}
                  </Link>
                </h3>
                <p className="text-xs text-slate-500">{t("subcategoryCount", { count: c.children.length })}</p>
                <ul className="mt-2 space-y-1 text-sm text-slate-700">
                  {c.children.map((child) => (
                    <li key={child.id}>
                      <Link href={{ pathname: "/search", query: { category: child.id } }} className="hover:text-brand-700">
                        {child.name}
                      </Link>
                    </li>
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
