import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { JsonLd } from "@/components/catalog/json-ld";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { getExhibition } from "@/lib/services/catalog/exhibitions";
import { orNull } from "@/lib/services/catalog/page-data";

export const dynamic = "force-dynamic";
// Metadata and page read the same record once per request.
const load = cache(async (slug: string) => orNull(getExhibition(await getDb(), slug)));
type Params = { params: Promise<{ locale: Locale; slug: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { locale, slug } = await params;
  const e = await load(slug);
  if (!e) return {};
  return { title: e.name, description: e.description.slice(0, 160), alternates: alternates(locale, `/exhibitions/${e.slug}`) };
}

export default async function ExhibitionPage({ params }: Params) {
  const { locale, slug } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Exhibitions");
  const th = await getTranslations("Home");
  const format = await getFormatter();
  const e = await load(slug);
  if (!e) notFound();
  return (
    <div className="space-y-8">
      <JsonLd
        data={{
          "@context": "https://schema.org",
          "@type": "Event",
          name: e.name,
          description: e.description,
          startDate: e.startsAt,
          endDate: e.endsAt,
          eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
          eventStatus: "https://schema.org/EventScheduled",
          location: { "@type": "VirtualLocation", url: `/exhibitions/${e.slug}` },
          ...(e.bannerUrl ? { image: [e.bannerUrl] } : {}),
        }}
      />
      <header className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-8 text-white">
        <p className="text-sm uppercase tracking-wide text-brand-100">{th(`status.${e.status}`)}</p>
        <h1 className="mt-1 text-3xl font-bold" dir="auto">
          {e.name}
        </h1>
        <p className="mt-3 max-w-3xl whitespace-pre-line text-brand-100 [unicode-bidi:plaintext]" dir="auto" data-testid="exhibition-description">
          {e.description}
        </p>
        <dl className="mt-4 flex flex-wrap gap-x-8 gap-y-1 text-sm">
          <div>
            <dt className="inline text-brand-100">{t("when")}: </dt>
            <dd className="inline">
              {th("dateRange", {
                start: format.dateTime(new Date(e.startsAt), { dateStyle: "long" }),
                end: format.dateTime(new Date(e.endsAt), { dateStyle: "long" }),
              })}
            </dd>
          </div>
          {e.venue && (
            <div>
              <dt className="inline text-brand-100">{t("where")}: </dt>
              <dd className="inline">
                <bdi>{e.venue}</bdi>
              </dd>
            </div>
          )}
        </dl>
      </header>
      <section aria-labelledby="exhibitors">
        <h2 id="exhibitors" className="text-xl font-semibold">
          {t("exhibitors")} <span className="text-base font-normal text-slate-500">({t("booths", { count: e.booths.length })})</span>
        </h2>
        {e.booths.length === 0 ? (
          <p className="mt-3 text-slate-600">{t("noBooths")}</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {e.booths.map((b) => (
              <li key={b.id} className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="exhibition-booth">
                <Link href={`/booths/${b.id}`} className="block p-5 hover:bg-slate-50">
                  {/* Names in a <bdi>: their own order ("Co., Ltd." keeps its final '.'), aligned with the page. */}
                  <p className="font-semibold break-words">
                    <bdi dir="auto" data-testid="exhibition-booth-name">
                      {b.name}
                    </bdi>
                  </p>
                  <p className="text-sm break-words text-slate-600">
                    <bdi dir="auto" data-testid="exhibition-booth-company">
                      {b.companyName}
                    </bdi>
                  </p>
                  {b.location && (
                    <p className="mt-1 text-xs text-slate-500">
                      <bdi dir="auto">{b.location}</bdi>
                    </p>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
