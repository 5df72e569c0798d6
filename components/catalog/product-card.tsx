import { getTranslations } from "next-intl/server";
import { Price } from "@/components/ui/price";
import { around } from "@/components/ui/sentence";
import { Link } from "@/lib/i18n/navigation";
import type { ProductView } from "@/lib/services/catalog/product-view";

/** `heading`: the title's level, one below the list's own heading (h2 under a page's h1, h3 under a section's h2). */
export async function ProductCard({
  product,
  heading: Heading = "h3",
}: {
  product: Pick<ProductView, "id" | "title" | "price" | "currency" | "moq" | "mainImageUrl" | "acceptsOEM" | "sentByAI" | "seller">;
  heading?: "h2" | "h3";
}) {
  const t = await getTranslations("Catalog");
  const [byBefore, byAfter] = around((mark) => t("by", { company: mark }));
  return (
    <li className="group overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md" data-testid="product-card">
      <Link href={`/products/${product.id}`} className="block">
        <div className="flex aspect-[4/3] items-center justify-center bg-slate-100">
          {product.mainImageUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- user uploads of any size; no remote loader configured
            <img src={product.mainImageUrl} alt="" loading="lazy" className="h-full w-full object-cover" />
          ) : (
            <span className="text-sm text-slate-600">{t("noImage")}</span>
          )}
        </div>
        <div className="space-y-1 p-4">
          <Heading className="line-clamp-2 font-medium group-hover:text-brand-700">
            {product.sentByAI && <AiBadge title={t("aiBadgeTitle")} label={t("aiBadge")} />}
            <bdi dir="auto" data-testid="product-title">
              {product.title}
            </bdi>
          </Heading>
          <p className="text-lg font-semibold text-slate-900">
            <Price amount={product.price} currency={product.currency} />
          </p>
          <p className="text-xs text-slate-600">{t("moq", { count: product.moq })}</p>
          {/* Only the name is cut, inside its own isolate: cut in a right-to-left line, a Latin name lost its start ("…lar & Lighting FZCO"). */}
          <p className="flex min-w-0 text-xs whitespace-pre text-slate-500" data-testid="product-supplier">
            {byBefore && <span className="shrink-0">{byBefore}</span>}
            <bdi dir="auto" className="min-w-0 truncate">
              {product.seller.companyName}
            </bdi>
            {byAfter && <span className="shrink-0">{byAfter}</span>}
          </p>
          {product.acceptsOEM && <span className="inline-block rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800">{t("oem")}</span>}
        </div>
      </Link>
    </li>
  );
}

/** The AI disclosure badge (contract 3) shown beside anything an AI account created. */
export function AiBadge({ title, label }: { title: string; label: string }) {
  return (
    <span
      title={title}
      className="me-1.5 inline-block rounded bg-amber-100 px-1.5 py-0.5 align-middle text-[10px] font-bold tracking-wide text-amber-900"
      data-testid="ai-badge"
    >
      {label}
    </span>
  );
}
