import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { FiltersDisclosure } from "@/components/catalog/filters-disclosure";
import { ProductCard } from "@/components/catalog/product-card";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { ProductListQuery } from "@/lib/schemas/products";
import { categoryTree } from "@/lib/services/catalog/categories";
import { searchProducts } from "@/lib/services/catalog/search";

export const dynamic = "force-dynamic";
type SP = Record<string, string | string[] | undefined>;

export async function generateMetadata({ params, searchParams }: { params: Promise<{ locale: Locale }>; searchParams: Promise<SP> }): Promise<Metadata> {
  const { locale } = await params;
  const sp = await searchParams;
  const t = await getTranslations({ locale, namespace: "Search" });
  const q = typeof sp.q === "string" ? sp.q : "";
  return { title: q ? t("titleFor", { q }) : t("title"), alternates: alternates(locale, "/search"), robots: q ? { index: false } : undefined };
}

const FIELDS = ["q", "category", "minPrice", "maxPrice", "maxMoq", "acceptsOEM", "sort"] as const;

export default async function SearchPage({ params, searchParams }: { params: Promise<{ locale: Locale }>; searchParams: Promise<SP> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Search");
  const sp = await searchParams;
  const raw = Object.fromEntries(Object.entries(sp).filter(([, v]) => typeof v === "string" && v !== ""));
  // Bad values (a hand-edited URL) fall back to defaults instead of failing the page.
  const parsed = ProductListQuery.safeParse({ ...raw, locale, limit: 24 });
  const query = parsed.success ? parsed.data : ProductListQuery.parse({ locale, limit: 24 });
  const db = await getDb();
  const [result, tree] = await Promise.all([searchProducts(db, query, { facets: true }), categoryTree(db, locale)]);
  const pages = Math.max(1, Math.ceil(result.total / query.limit));
  const current = Object.fromEntries(FIELDS.map((f) => [f, typeof raw[f] === "string" ? (raw[f] as string) : ""]));
  const hrefFor = (changes: Record<string, string | number>) => ({
    pathname: "/search",
    query: Object.fromEntries(
      Object.entries({ ...current, page: String(query.page), ...changes })
        .filter(([, v]) => v !== "" && v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    ),
  });

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8">
      <aside aria-label={t("filters")}>
        <FiltersDisclosure label={t("filters")} active={FIELDS.filter((f) => f !== "q" && f !== "sort" && current[f]).length}>
          <h2 id="filters-title" className="hidden text-lg font-semibold lg:block">
            {t("filters")}
          </h2>
          <form method="get" className="mt-4 space-y-4 rounded-xl border border-slate-200 bg-white p-4 text-sm" role="search">
            <label className="block">
              <span className="font-medium">{t("keyword")}</span>
              <input name="q" type="search" defaultValue={current.q} className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
            </label>
            <label className="block">
              <span className="font-medium">{t("category")}</span>
              <select name="category" defaultValue={current.category} className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-2">
                <option value="">{t("anyCategory")}</option>
                {tree.map((c) => (
                  <optgroup key={c.id} label={c.name}>
                    <option value={c.id}>{c.name}</option>
                    {c.children.map((child) => (
                      <option key={child.id} value={child.id}>
                        {"— "}
                        {child.name}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </label>
            <div className="grid grid-cols-2 gap-2">
              <label className="block">
                <span className="font-medium">{t("minPrice")}</span>
                <input
                  name="minPrice"
                  type="number"
                  min={0}
                  step="0.01"
                  inputMode="decimal"
                  defaultValue={current.minPrice}
                  className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-2"
                />
              </label>
              <label className="block">
                <span className="font-medium">{t("maxPrice")}</span>
                <input
                  name="maxPrice"
                  type="number"
                  min={0}
                  step="0.01"
                  inputMode="decimal"
                  defaultValue={current.maxPrice}
                  className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-2"
                />
              </label>
            </div>
            <label className="block">
              <span className="font-medium">{t("maxMoq")}</span>
              <input
                name="maxMoq"
                type="number"
                min={1}
                step={1}
                defaultValue={current.maxMoq}
                className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-2"
              />
            </label>
            <label className="flex items-center gap-2">
              <input name="acceptsOEM" type="checkbox" value="true" defaultChecked={current.acceptsOEM === "true"} />
              {t("oemOnly")}
            </label>
            <label className="block">
              <span className="font-medium">{t("sort")}</span>
              <select name="sort" defaultValue={current.sort || "relevance"} className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-2">
                <option value="relevance">{t("sortRelevance")}</option>
                <option value="newest">{t("sortNewest")}</option>
                <option value="price_asc">{t("sortPriceAsc")}</option>
                <option value="price_desc">{t("sortPriceDesc")}</option>
              </select>
            </label>
            <div className="flex gap-2">
              <button type="submit" className="flex-1 rounded-lg bg-brand-600 px-3 py-2 font-medium text-white">
                {t("apply")}
              </button>
              <Link href="/search" className="rounded-lg border border-slate-300 px-3 py-2">
                {t("clear")}
              </Link>
            </div>
          </form>
          {result.facets && result.facets.categories.length > 0 && (
            <nav aria-labelledby="facets-title" className="mt-6 text-sm">
              <h2 id="facets-title" className="font-semibold">
                {t("facetsTitle")}
              </h2>
              <ul className="mt-2 space-y-1">
                {result.facets.categories.map((f) => (
                  <li key={f.id}>
                    <Link
                      href={hrefFor({ category: f.id, page: 1 })}
                      className={`flex justify-between gap-2 hover:text-brand-700 ${current.category === f.id ? "font-semibold" : ""}`}
                    >
                      <span>{f.name}</span>
                      <span className="text-slate-500">{f.count}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </FiltersDisclosure>
      </aside>
      <section aria-labelledby="results-title">
        <h1 id="results-title" className="text-2xl font-bold">
          {current.q ? t("titleFor", { q: current.q }) : t("title")}
        </h1>
        <p className="mt-1 text-sm text-slate-600" data-testid="result-count">
          {result.totalRelation === "gte" ? t("resultsAtLeast", { count: result.total }) : t("results", { count: result.total })}
        </p>
        {result.products.length === 0 ? (
          <p className="mt-8 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
        ) : (
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {result.products.map((p) => (
              <ProductCard key={p.id} product={p} heading="h2" />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label={t("pagination")} className="mt-8 flex flex-wrap items-center gap-2">
            {Array.from({ length: Math.min(pages, 10) }, (_, i) => i + 1).map((n) => (
              <Link
                key={n}
                href={hrefFor({ page: n })}
                aria-current={n === query.page ? "page" : undefined}
                className={`rounded-lg border px-3 py-1.5 text-sm ${n === query.page ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white"}`}
              >
                {n}
              </Link>
            ))}
          </nav>
        )}
      </section>
    </div>
  );
}
