import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { JsonLd } from "@/components/catalog/json-ld";
import { AiBadge, ProductCard } from "@/components/catalog/product-card";
import { ProductActions } from "@/components/catalog/product-actions";
import { VolumePricing } from "@/components/catalog/volume-pricing";
import { priceText } from "@/components/ui/price";
import { getDb } from "@/lib/db/client";
import { RELATED_READ } from "@/lib/pages/versions";
import { pageCtx } from "@/lib/gate/context";
import { Link } from "@/lib/i18n/navigation";
import { absoluteUrl, alternates, openGraphUrl } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { ProductListQuery } from "@/lib/schemas/products";
import { orNull } from "@/lib/services/catalog/page-data";
import { getProduct } from "@/lib/services/catalog/products";
import { listProducts } from "@/lib/services/catalog/search";
import { withClientMessages } from "@/lib/i18n/client-messages";

export const dynamic = "force-dynamic";
// Metadata and page read the product (and count the view) once per request. Anonymous answers are
// kept as HTML by lib/pages/page-cache.ts while what they show is unchanged; the view of a cached
// answer is counted there.
const load = cache(async (id: string, locale: Locale) => orNull(getProduct(pageCtx(await getDb()), id, locale)));
type Params = { params: Promise<{ locale: Locale; id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { locale, id } = await params;
  const product = await load(id, locale);
  if (!product) return {};
  return {
    title: product.title,
    description: product.description.slice(0, 160) || product.title,
    alternates: alternates(locale, `/products/${id}`),
    openGraph: {
      title: product.title,
      url: openGraphUrl(locale, `/products/${id}`),
      images: product.mainImageUrl ? [absoluteUrl(product.mainImageUrl)] : undefined,
      type: "website",
    },
  };
}

export default withClientMessages(["OrderForm", "Product"], async function ProductPage({ params }: Params) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const [t, tc, product] = await Promise.all([getTranslations("Product"), getTranslations("Catalog"), load(id, locale)]);
  if (!product) notFound();
  const related = (await listProducts(await getDb(), ProductListQuery.parse({ sellerId: product.seller.id, limit: RELATED_READ, sort: "newest", locale })))
    .filter((p) => p.id !== product.id)
    .slice(0, 4);
  const price = priceText(locale, product.price, product.currency);
  return (
    <article className="space-y-10">
      <JsonLd
        data={{
          "@context": "https://schema.org",
          "@type": "Product",
          name: product.title,
          url: openGraphUrl(locale, `/products/${id}`),
          description: product.description,
          image: product.images.map(absoluteUrl),
          category: product.categoryName,
          brand: { "@type": "Organization", name: product.seller.companyName },
          offers: {
            "@type": "Offer",
            price: product.price.toFixed(2),
            priceCurrency: product.currency,
            eligibleQuantity: { "@type": "QuantitativeValue", minValue: product.moq },
            seller: { "@type": "Organization", name: product.seller.companyName },
            availability: "https://schema.org/InStock",
          },
        }}
      />
      <div className="grid gap-8 lg:grid-cols-2">
        <section aria-label={t("images")} className="space-y-3">
          <div className="flex aspect-square items-center justify-center overflow-hidden rounded-2xl border border-slate-200 bg-white">
            {product.mainImageUrl ? (
              // eslint-disable-next-line @next/next/no-img-element -- user uploads; no image loader configured
              <img src={product.mainImageUrl} alt={product.title} className="h-full w-full object-contain" />
            ) : (
              <span className="text-slate-600">{tc("noImage")}</span>
            )}
          </div>
          {product.images.length > 1 && (
            <ul className="grid grid-cols-5 gap-2">
              {product.images.map((src, i) => (
                <li key={src + i} className="aspect-square overflow-hidden rounded-lg border border-slate-200 bg-white">
                  {/* eslint-disable-next-line @next/next/no-img-element -- user uploads */}
                  <img src={src} alt={t("imageOf", { index: i + 1, count: product.images.length })} loading="lazy" className="h-full w-full object-cover" />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="space-y-5">
          <div>
            {product.categoryName && (
              <Link href={{ pathname: "/search", query: { category: product.category } }} className="text-sm text-brand-700 hover:underline">
                {product.categoryName}
              </Link>
            )}
            <h1 className="mt-1 text-3xl font-bold">
              {product.sentByAI && <AiBadge title={tc("aiBadgeTitle")} label={tc("aiBadge")} />}
              <bdi dir="auto" data-testid="product-title">
                {product.title}
              </bdi>
            </h1>
          </div>
          <dl className="grid grid-cols-2 gap-4 rounded-xl border border-slate-200 bg-white p-5">
            <div>
              <dt className="text-sm text-slate-500">{t("price")}</dt>
              <dd className="text-2xl font-bold" data-testid="product-price">
                {t("unitPrice", { price })}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">{t("moq")}</dt>
              <dd className="text-lg font-semibold">{t("moqValue", { count: product.moq })}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">{t("oem")}</dt>
              <dd>{product.acceptsOEM ? t("oemYes") : t("oemNo")}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">{t("supplier")}</dt>
              <dd>
                <Link href={`/stores/${product.seller.id}`} className="font-medium text-brand-700 hover:underline">
                  <bdi dir="auto">{product.seller.companyName}</bdi>
                </Link>
              </dd>
            </div>
          </dl>
          <VolumePricing product={product} />
          {product.booth && (
            <p className="rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm">
              {t("booth")}:{" "}
              <Link href={`/booths/${product.booth.id}`} className="font-semibold text-brand-700 hover:underline" data-testid="product-booth-link">
                <bdi dir="auto">{product.booth.name}</bdi>
              </Link>
            </p>
          )}
          <ProductActions productId={product.id} sellerId={product.seller.id} />
          {product.description && (
            <div>
              <h2 className="font-semibold">{t("description")}</h2>
              <p dir="auto" className="mt-2 whitespace-pre-line text-start text-slate-700 [unicode-bidi:plaintext]">
                {product.description}
              </p>
            </div>
          )}
          {product.keywords.length > 0 && (
            <div>
              <h2 className="text-sm font-semibold text-slate-600">{t("keywords")}</h2>
              <ul className="mt-2 flex flex-wrap gap-2">
                {product.keywords.map((k) => (
                  <li key={k}>
                    <Link href={{ pathname: "/search", query: { q: k } }} className="rounded-full bg-slate-100 px-3 py-1 text-sm hover:bg-slate-200">
                      {k}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      </div>
      {related.length > 0 && (
        <section aria-labelledby="related">
          <h2 id="related" className="text-xl font-semibold">
            {t("related")}
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {related.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </ul>
        </section>
      )}
    </article>
  );
});
