import { getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";

/** Previous / "page x of y" / next links; `href` builds a page's URL (page 1 has no ?page=). */
export async function Pager({ page, pages, href, label }: { page: number; pages: number; href: (page: number) => string; label: string }) {
  if (pages <= 1) return null;
  const t = await getTranslations("Stores");
  const cls = "rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:border-brand-600";
  return (
    <nav aria-label={label} className="mt-6 flex flex-wrap items-center justify-center gap-3" data-testid="pager">
      {page > 1 && (
        <Link href={href(page - 1)} rel="prev" className={cls}>
          {t("previous")}
        </Link>
      )}
      <span className="text-sm text-slate-600" aria-current="page">
        {t("pageOf", { page, pages })}
      </span>
      {page < pages && (
        <Link href={href(page + 1)} rel="next" className={cls}>
          {t("next")}
        </Link>
      )}
    </nav>
  );
}

/** The ?page= of a list: a positive integer, else 1. */
export function pageParam(v: string | string[] | undefined): number {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}
