// /products for browsers: the catalog is the search page's product list (with its paging, filters
// and facets), so this path sends people there with their query kept (docs/decisions.md). API
// clients asking for /products never reach this page: proxy.ts rewrites them to /api/products.
import { redirect } from "@/lib/i18n/navigation";
import type { Locale } from "@/lib/i18n/locales";

export const dynamic = "force-dynamic";
type SP = Record<string, string | string[] | undefined>;

export default async function ProductsPage({ params, searchParams }: { params: Promise<{ locale: Locale }>; searchParams: Promise<SP> }) {
  const { locale } = await params;
  const query = Object.fromEntries(Object.entries(await searchParams).filter((e): e is [string, string] => typeof e[1] === "string"));
  redirect({ href: { pathname: "/search", query }, locale });
}
