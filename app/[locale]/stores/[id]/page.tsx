import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { ProductCard } from "@/components/catalog/product-card";
import { ContactSupplier } from "@/components/stores/contact-supplier";
import { Pager, pageParam } from "@/components/stores/pager";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { ProductListQuery } from "@/lib/schemas/products";
import { orNull } from "@/lib/services/catalog/page-data";
import { listProducts } from "@/lib/services/catalog/search";
import { getStore } from "@/lib/services/catalog/stores";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const dynamic = "force-dynamic";
const PER_PAGE = 24;
// Metadata and page read the same store once per request.
const load = cache(async (id: string) => orNull(getStore(await getDb(), id)));
type Params = { params: Promise<{ locale: Locale; id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { locale, id } = await params;
  const s = await load(id);
  if (!s) return {};
  return { title: s.companyName, description: (s.description ?? s.companyName).slice(0, 160), alternates: alternates(locale, `/stores/${id}`) };
}

export default withClientMessages(["ApiClient", "Stores"], async function StorePage({ params, searchParams }: Params) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Store");
  const ts = await getTranslations("Stores");
  const format = await getFormatter();
  const db = await getDb();
  const store = await load(id);
  if (!store) notFound();
  const pages = Math.max(1, Math.ceil(store.productCount / PER_PAGE));
  const page = Math.min(pageParam((await searchParams).page), pages);
  // Read directly, not through the near-real-time list cache: this page is cached as HTML keyed on
  // the store's rows (lib/pages/versions.ts), so what it renders must be exact at once. Only the
  // first page is cached (the page cache never keys on a query string).
  const products = await listProducts(db, ProductListQuery.parse({ sellerId: id, sort: "newest", limit: PER_PAGE, page, locale }));
  const website = store.website && /^https?:\/\//i.test(store.website) ? store.website : null;
  return (
    <div className="space-y-8">
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white">
        {store.bannerUrl && (
          // The whole banner in a fixed-ratio box (object-contain): no strip, no crop.
          <div className="aspect-[4/1] w-full bg-slate-100">
            {/* eslint-disable-next-line @next/next/no-img-element -- user upload */}
            <img src={store.bannerUrl} alt="" className="h-full w-full object-contain" data-testid="store-banner" />
          </div>
        )}
        <header className="flex flex-wrap items-start gap-5 p-6">
          {store.logoUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- user upload
            <img src={store.logoUrl} alt="" className="h-20 w-20 shrink-0 rounded-xl border border-slate-200 object-contain p-1" data-testid="store-logo" />
          )}
          <div className="min-w-0 flex-1">
            <h1 className="text-3xl font-bold break-words" dir="auto">
              {store.companyName}
            </h1>
            <p className="mt-1 text-sm text-slate-600">
              {store.country && (
                <>
                  <bdi>{store.country}</bdi> ·{" "}
                </>
              )}
              {t("memberSince", { date: format.dateTime(new Date(store.createdAt), { year: "numeric", month: "long" }) })} ·{" "}
              <span data-testid="store-product-count">{t("productCount", { count: store.productCount })}</span>
            </p>
            {store.description && (
              <p className="mt-3 whitespace-pre-line text-slate-700 [unicode-bidi:plaintext]" dir="auto">
                {store.description}
              </p>
            )}
            {website && (
              <p className="mt-3 text-sm">
                <span className="text-slate-500">{t("website")}: </span>
                <a href={website} rel="nofollow noopener ugc" target="_blank" className="break-all font-medium text-brand-700 hover:underline" dir="ltr">
                  {website.replace(/^https?:\/\//i, "")}
                </a>
              </p>
            )}
          </div>
          <div className="w-full sm:w-auto sm:max-w-sm">
            <ContactSupplier storeId={store.id} companyName={store.companyName} />
          </div>
        </header>
      </div>
      <section aria-labelledby="store-booths">
        <h2 id="store-booths" className="text-xl font-semibold">
          {t("booths")}
        </h2>
        {store.booths.length === 0 ? (
          <p className="mt-2 text-slate-600">{t("noBooths")}</p>
        ) : (
          <ul className="mt-3 flex flex-wrap gap-3">
            {store.booths.map((b) => (
              <li key={b.id}>
                <Link href={`/booths/${b.id}`} className="block rounded-lg border border-slate-200 bg-white px-4 py-2 hover:border-brand-600" dir="auto">
                  {b.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="store-products">
        <h2 id="store-products" className="text-xl font-semibold">
          {t("products")}
        </h2>
        {products.length === 0 ? (
          <p className="mt-2 text-slate-600">{ts("noProducts")}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="store-products">
            {products.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </ul>
        )}
        <Pager page={page} pages={pages} href={(n) => (n === 1 ? `/stores/${id}` : `/stores/${id}?page=${n}`)} label={ts("productPages")} />
      </section>
    </div>
  );
});
