import type { Metadata } from "next";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { Pager, pageParam } from "@/components/stores/pager";
import { getDb } from "@/lib/db/client";
import { Link } from "@/lib/i18n/navigation";
import { alternates } from "@/lib/i18n/metadata";
import type { Locale } from "@/lib/i18n/locales";
import { listPublicSellers, storeCountries } from "@/lib/services/catalog/stores";

export const dynamic = "force-dynamic";
const PER_PAGE = 24;
type Props = { params: Promise<{ locale: Locale }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim().slice(0, 200) || undefined;

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { locale } = await params;
  const sp = await searchParams;
  const t = await getTranslations({ locale, namespace: "Stores" });
  // A filtered or later page is a view of the directory, not a page of its own for search engines.
  const filtered = Boolean(one(sp.q) || one(sp.country) || one(sp.page));
  return { title: t("title"), description: t("subtitle"), alternates: alternates(locale, "/stores"), ...(filtered ? { robots: { index: false } } : {}) };
}

export default async function StoresPage({ params, searchParams }: Props) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations("Stores");
  const ts = await getTranslations("Store");
  const sp = await searchParams;
  const q = one(sp.q);
  const country = one(sp.country);
  const db = await getDb();
  const countries = await storeCountries(db);
  let page = pageParam(sp.page);
  let list = await listPublicSellers(db, { q, country, page, limit: PER_PAGE });
  const pages = Math.max(1, Math.ceil(list.total / PER_PAGE));
  if (page > pages) list = await listPublicSellers(db, { q, country, page: (page = pages), limit: PER_PAGE });
  const href = (n: number) => {
    const u = new URLSearchParams();
    if (q) u.set("q", q);
    if (country) u.set("country", country);
    if (n > 1) u.set("page", String(n));
    const s = u.toString();
    return s ? `/stores?${s}` : "/stores";
  };
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold">{t("title")}</h1>
        <p className="mt-2 text-slate-600">{t("subtitle")}</p>
      </header>
      <form role="search" method="get" className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <div className="min-w-0 flex-1 basis-56">
          <label htmlFor="stores-q" className="block text-sm font-medium text-slate-800">
            {t("searchLabel")}
          </label>
          <input
            id="stores-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={200}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          />
        </div>
        <div className="min-w-0 basis-40">
          <label htmlFor="stores-country" className="block text-sm font-medium text-slate-800">
            {t("country")}
          </label>
          <select
            id="stores-country"
            name="country"
            defaultValue={country ?? ""}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          >
            <option value="">{t("allCountries")}</option>
            {countries.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white">
          {t("searchButton")}
        </button>
      </form>
      <p className="text-sm text-slate-600" role="status">
        {t("found", { count: list.total })}
      </p>
      {list.sellers.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-600">{t("none")}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="store-directory">
          {list.sellers.map((s) => (
            <li key={s.id} className="min-w-0">
              <Link
                href={`/stores/${s.id}`}
                className="flex h-full items-center gap-4 rounded-xl border border-slate-200 bg-white p-4 hover:border-brand-600"
                data-testid="store-card"
              >
                {s.logoUrl ? (
                  // eslint-disable-next-line @next/next/no-img-element -- user upload
                  <img src={s.logoUrl} alt="" className="h-16 w-16 shrink-0 rounded-lg border border-slate-200 object-contain p-1" />
                ) : (
                  <span
                    aria-hidden="true"
                    className="flex h-16 w-16 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-2xl font-bold text-brand-700"
                  >
                    {s.companyName.slice(0, 1).toUpperCase()}
                  </span>
                )}
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold text-slate-900" dir="auto">
                    {s.companyName}
                  </span>
                  {s.country && (
                    <span className="block text-sm text-slate-600">
                      <bdi>{s.country}</bdi>
                    </span>
                  )}
                  <span className="block text-sm text-slate-600">{ts("productCount", { count: s.productCount })}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} href={href} label={t("directoryPages")} />
    </div>
  );
}
