import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { BoothShowcase } from "@/components/catalog/booth-showcase";
import { ProductCard } from "@/components/catalog/product-card";
import { getDb } from "@/lib/db/client";
import { pageCtx } from "@/lib/gate/context";
import { Link } from "@/lib/i18n/navigation";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { getBooth } from "@/lib/services/catalog/booths";
import { orNull } from "@/lib/services/catalog/page-data";

export const dynamic = "force-dynamic";
// Metadata and page read the same record once per request.
const load = cache(async (id: string) => orNull(getBooth(pageCtx(await getDb()), id)));
type Params = { params: Promise<{ locale: Locale; id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { locale, id } = await params;
  const b = await load(id);
  if (!b) return {};
  return { title: b.name, description: (b.description ?? b.name).slice(0, 160), alternates: alternates(locale, `/booths/${id}`) };
}

export default async function BoothPage({ params }: Params) {
  const { locale, id } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Booth");
  const format = await getFormatter();
  const booth = await load(id);
  if (!booth) notFound();
  return (
    <BoothShowcase {...booth} companyName={booth.seller?.companyName}>
      <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
        {booth.exhibition && (
          <div>
            <dt className="inline text-slate-500">{t("exhibition")}: </dt>
            <dd className="inline">
              <Link href={`/exhibitions/${booth.exhibition.slug}`} className="font-medium text-brand-700 hover:underline" dir="auto">
                {booth.exhibition.name}
              </Link>
            </dd>
          </div>
        )}
        {booth.seller && (
          <div>
            <dt className="inline text-slate-500">{t("supplier")}: </dt>
            <dd className="inline">
              <Link href={`/stores/${booth.seller.id}`} className="font-medium text-brand-700 hover:underline" dir="auto">
                {booth.seller.companyName}
              </Link>
            </dd>
          </div>
        )}
      </dl>
      {booth.documents.length > 0 && (
        <section aria-labelledby="docs">
          <h2 id="docs" className="text-lg font-semibold">
            {t("documents")}
          </h2>
          <ul className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200">
            {booth.documents.map((d) => (
              <li key={d.url} className="flex items-center justify-between gap-3 px-4 py-2 text-sm">
                <bdi dir="auto" className="min-w-0 truncate">
                  {d.name}
                </bdi>
                <span className="flex shrink-0 items-center gap-3 text-slate-500">
                  {format.number(d.size / 1024 / 1024, { maximumFractionDigits: 1 })} MB
                  <a href={d.url} download className="rounded border border-slate-300 px-2 py-1 text-slate-800 hover:bg-slate-50">
                    {t("download")}
                  </a>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="booth-products">
        <h2 id="booth-products" className="text-lg font-semibold">
          {t("products")}
        </h2>
        {booth.products.length === 0 ? (
          <p className="mt-2 text-slate-600">{t("noProducts")}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {booth.products.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </ul>
        )}
      </section>
    </BoothShowcase>
  );
}
