import { getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";
import type { newestSuppliers } from "@/lib/services/catalog/home";

type Supplier = Awaited<ReturnType<typeof newestSuppliers>>[number];

/** The stores that joined last, each a link to its store page. */
export async function FairSuppliers({ suppliers, locale }: { suppliers: Supplier[]; locale: string }) {
  const t = await getTranslations("HomeFair");
  if (suppliers.length === 0) return null;
  const regions = new Intl.DisplayNames([locale], { type: "region" });
  const country = (code: string | null) => {
    if (!code) return null;
    try {
      return regions.of(code) ?? code;
    } catch {
      return code;
    }
  };
  return (
    <section aria-labelledby="suppliers-title">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="suppliers-title" className="text-2xl font-semibold">
          {t("suppliersTitle")}
        </h2>
        <Link href="/stores" className="text-sm text-brand-700 hover:underline">
          {t("viewAllSuppliers")}
        </Link>
      </div>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="newest-suppliers">
        {suppliers.map((s) => (
          <li key={s.id} className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md" data-testid="supplier-card">
            <Link href={`/stores/${s.id}`} className="flex items-center gap-4 p-4">
              {s.logoUrl ? (
                // eslint-disable-next-line @next/next/no-img-element -- uploaded logos; no remote loader configured
                <img src={s.logoUrl} alt="" width={56} height={56} loading="lazy" className="h-14 w-14 shrink-0 rounded-lg object-cover" />
              ) : (
                <span
                  aria-hidden="true"
                  className="flex h-14 w-14 shrink-0 items-center justify-center rounded-lg bg-brand-100 text-lg font-bold text-brand-800"
                >
                  {s.companyName.slice(0, 1)}
                </span>
              )}
              <span className="min-w-0 flex-1">
                <bdi dir="auto" className="block truncate font-medium text-slate-900">
                  {s.companyName}
                </bdi>
                <span className="block text-sm text-slate-600">
                  {country(s.country) ? `${country(s.country)} · ` : ""}
                  {t("productCount", { count: s.productCount })}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The buyer's other way in: say what you need and let suppliers quote. */
export async function PostRequirementCall() {
  const t = await getTranslations("HomeFair");
  return (
    <section aria-labelledby="requirement-title" className="rounded-2xl border border-amber-200 bg-amber-50 px-6 py-8 sm:px-10">
      <h2 id="requirement-title" className="text-2xl font-semibold text-slate-900">
        {t("requirementTitle")}
      </h2>
      <p className="mt-2 max-w-2xl text-slate-700">{t("requirementText")}</p>
      <Link
        href="/buyer?tab=requirements"
        className="mt-5 inline-block rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        data-testid="post-requirement-cta"
      >
        {t("requirementCta")}
      </Link>
    </section>
  );
}
