// The product shape every endpoint returns (contract 4: both moq and minOrderQty; keywordCoverage).
// `boothId` only where the caller may see the booth (contract 9.1: an unpublished booth reveals
// neither its id nor its products to others), so it defaults to hidden.
import type { products } from "@/lib/db/schema";
import { keywordCoverage } from "@/lib/search/coverage";
import { shownTiers } from "./price-tiers";

export type ProductRow = typeof products.$inferSelect;
/** What a product answer shows: the row without its search columns (lists do not fetch them). */
export type ShownProduct = Omit<ProductRow, "searchText" | "titleNorm" | "cjkGrams" | "tokens" | "keywordsNorm" | "searchVersion">;
export type SellerInfo = { id: string; companyName: string; country: string | null };

export function productView(p: ShownProduct, seller: SellerInfo, categoryName?: string, boothVisible = false) {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    price: Number(p.price),
    currency: p.currency,
    category: p.categoryId,
    ...(categoryName !== undefined ? { categoryName } : {}),
    moq: p.moq,
    minOrderQty: p.moq,
    acceptsOEM: p.acceptsOEM,
    images: p.images,
    mainImageUrl: p.mainImageUrl ?? p.images[0] ?? null,
    keywords: p.keywords,
    priceTiers: shownTiers(p.priceTiers),
    boothId: boothVisible ? p.boothId : null,
    seller,
    sentByAI: p.sentByAI,
    isHidden: p.isHidden,
    viewCount: p.viewCount,
    keywordCoverage: keywordCoverage(p.keywords),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
export type ProductView = ReturnType<typeof productView>;
