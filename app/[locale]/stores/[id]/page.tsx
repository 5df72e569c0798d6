import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { ProductCard } from "@/components/catalog/product-card";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { ProductListQuery } from "@/lib/schemas/products";
import { orNull } from "@/lib/services/catalog/page-data";
import { listProducts } from "@/lib/services/catalog/search";
import { getStore } from "@/lib/services/catalog/stores";

export const dynamic = "force-dynamic";
// Metadata and page read the same store once per request.
const load = cache(async (id: string) => orNull(getStore(await getDb(), id)));
type Params = { params: Promise<{ locale: Locale; id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { locale, id } = await params;
  const s = await load(id);
  if (!s) return {};
  return { title: s.companyName, description: (s.description ?? s.companyName).slice(0, 160), alternates: alternates(locale, `/stores/${id}`) };
}

export default async function StorePage({ params }: Params) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Store");
  const format = await getFormatter();
  const db = await getDb();
  const store = await load(id);
  if (!store) notFound();
  // Read directly, not through the near-real-time list cache: this page is cached as HTML keyed on
  // the store's rows (lib/pages/versions.ts), so what it renders must be exact at once.
  const items = { products: await listProducts(db, ProductListQuery.parse({ sellerId: id, sort: "newest", limit: 24, locale })) };
  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-center gap-5 rounded-2xl border border-slate-200 bg-white p-6">
        {store.logoUrl && (
          // eslint-disable-next-line @next/next/no-img-element -- user upload
          <img src={store.logoUrl} alt="" className="h-20 w-20 rounded-xl border border-slate-200 object-contain p-1" />
        )}
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold">{store.companyName}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {store.country && <span>{store.country} · </span>}
            {t("memberSince", { date: format.dateTime(new Date(store.createdAt), { year: "numeric", month: "long" }) })} ·{" "}
            {t("productCount", { count: store.productCount })}
          </p>
          {store.description && <p className="mt-3 text-slate-700">{store.description}</p>}
        </div>
      </header>
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
                <Link href={`/booths/${b.id}`} className="block rounded-lg border border-slate-200 bg-white px-4 py-2 hover:border-brand-600">
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
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {items.products.map((p) => (
            <ProductCard key={p.id} product={p} />
          ))}
        </ul>
      </section>
    </div>
  );
}
