// Product verbs (spec 4.2, contract 4): create, read (counting a view, buffered in views.ts), update,
// patch (booth assignment, 100 per booth), delete. Ownership is by store; an AI_SELLER acts for its guardian's.
import { and, count, eq, isNull, or, sql } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import { actingSellerProfileId, isAdmin, requireStoreId, type Actor } from "@/lib/auth/actor";
import { shortDb, type Db } from "@/lib/db/client";
import { booths, categories, products, sellerProfiles } from "@/lib/db/schema";
import type { CreateProductInput, UpdateProductInput } from "@/lib/schemas/products";
import { SEARCH_NORMALIZATION_VERSION, searchColumns } from "@/lib/search/normalize";
import { requestApproval } from "@/lib/services/ai/approvals";
import { referenceOf, sellerPriceChangeRule, type Measured } from "@/lib/services/ai/price-mandate";
import type { Ctx } from "@/lib/gate/context";
import { localizedName } from "./categories";
import { sameTiers, shownTiers, storedTiers, tierIssues, type PriceTier } from "./price-tiers";
import { productView, type ShownProduct } from "./product-view";
import { shownProductColumns } from "./search-sql";

type OwnRow = ShownProduct & { searchVersion: number };
import { pendingViews, recordView } from "./views";

export const BOOTH_CAPACITY = 100;

async function resolveCategory(db: Db, idOrSlug: string): Promise<string> {
  const [c] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(or(eq(categories.id, idOrSlug), eq(categories.slug, idOrSlug)))
    .limit(1);
  if (!c) throw new ApiError("validation_failed", `Unknown category "${idOrSlug}"`, { errors: [{ path: "category", message: "No such category" }] });
  return c.id;
}

async function sellerInfo(db: Db, sellerId: string) {
  const [s] = await db
    .select({ id: sellerProfiles.id, companyName: sellerProfiles.companyName, country: sellerProfiles.country })
    .from(sellerProfiles)
    .where(eq(sellerProfiles.id, sellerId));
  return s ?? { id: sellerId, companyName: "", country: null };
}

/** A booth of this store with room for one more product (409 `booth_full` at 100). */
async function assertBoothRoom(db: Db, sellerId: string, boothId: string, productId?: string) {
  const [booth] = await db
    .select({ id: booths.id })
    .from(booths)
    .where(and(eq(booths.id, boothId), eq(booths.sellerId, sellerId)))
    .for("update");
  if (!booth) throw notFound("Booth");
  const [n] = await db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.boothId, boothId), isNull(products.deletedAt), productId ? sql`${products.id} <> ${productId}` : undefined));
  if (Number(n?.n ?? 0) >= BOOTH_CAPACITY) {
    throw new ApiError("booth_full", `A booth holds at most ${BOOTH_CAPACITY} products; create another booth for the rest`);
  }
}

export async function createProduct(ctx: Ctx, input: CreateProductInput) {
  const { db, actor } = ctx;
  const sellerId = requireStoreId(actor);
  if (actor.type === "ai" && !(input.keywords && input.keywords.length)) {
    throw new ApiError("keywords_required", "AI sellers must supply keywords (zh, en, de, ja, ko, ru, es, fr, pt, ar or hi)", {
      status: 400,
      errors: [{ path: "keywords", message: "Required for AI accounts" }],
    });
  }
  const categoryId = await resolveCategory(db, input.category);
  return db.transaction(async (tx) => {
    if (input.boothId) await assertBoothRoom(tx, sellerId, input.boothId);
    const images = input.images ?? [];
    const keywords = input.keywords ?? [];
    const price = { amount: input.price.toFixed(2), currency: input.currency };
    const tiers = storedTiers(input.priceTiers ?? []);
    // A new product's own price is its reference: only its tiers can be a discount an agent may not give.
    const hold =
      actor.type === "ai"
        ? await sellerPriceChangeRule(
            { db: tx, actor },
            price,
            price,
            price,
            tiers.map((t) => ({ amount: t.unitPrice, minQty: t.minQty })),
            "currency",
          )
        : null;
    const [row] = await tx
      .insert(products)
      .values({
        sellerId,
        categoryId,
        boothId: input.boothId ?? null,
        title: input.title,
        description: input.description ?? "",
        price: input.price.toFixed(2),
        currency: input.currency,
        moq: input.moq,
        acceptsOEM: input.acceptsOEM ?? false,
        images,
        mainImageUrl: input.mainImageUrl ?? images[0] ?? null,
        keywords,
        priceTiers: hold ? [] : tiers,
        sentByAI: actor.type === "ai",
        ...searchColumns({ title: input.title, description: input.description, keywords }),
      })
      .returning();
    const view = productView(row!, await sellerInfo(tx, sellerId), undefined, true);
    if (!hold || actor.type !== "ai") return view;
    const summary = {
      item: row!.title,
      productId: row!.id,
      listPrice: input.price,
      unitPrice: input.price,
      currency: input.currency,
      ...hold,
      tiers: { old: [], new: shownTiers(tiers) },
    };
    const a = await requestApproval({ ...ctx, db: tx, actor }, { kind: "price", subjectId: row!.id, summary });
    return { ...view, pendingApproval: { id: a.id, rule: hold.rule } };
  });
}

/** The product without its search text (several KB no caller here reads), with its normalization version. */
async function loadProduct(db: Db, id: string): Promise<OwnRow | null> {
  const [p] = await db
    .select({ ...shownProductColumns, searchVersion: products.searchVersion })
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt)))
    .limit(1);
  return p ?? null;
}

/** Public product detail; a hidden product only for its store. Counts a view for others. */
export async function getProduct(ctx: Ctx, id: string, locale = "en") {
  const { db, actor } = ctx;
  // The product with its category, booth and store in one round trip, on the short statements'
  // connections (a product page must not wait behind a burst of searches: shortDb).
  const [row] = await shortDb(db)
    .select({
      p: shownProductColumns,
      categoryNames: categories.names,
      booth: { id: booths.id, name: booths.name, isPublished: booths.isPublished },
      seller: { id: sellerProfiles.id, companyName: sellerProfiles.companyName, country: sellerProfiles.country, userId: sellerProfiles.userId },
    })
    .from(products)
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(booths, eq(booths.id, products.boothId))
    .leftJoin(sellerProfiles, eq(sellerProfiles.id, products.sellerId))
    .where(and(eq(products.id, id), isNull(products.deletedAt)))
    .limit(1);
  const p = row?.p;
  const own = p && actingSellerProfileId(actor) === p.sellerId;
  if (!row || !p || (p.isHidden && !own)) throw notFound("Product");
  if (!own) {
    // Counted outside the request (views.ts): what this process has not yet written shows too.
    p.viewCount += pendingViews(p.id) + 1;
    recordView({ productId: p.id, sellerId: p.sellerId });
  }
  const boothVisible = !!row.booth?.id && (row.booth.isPublished || !!own || isAdmin(actor));
  const booth = boothVisible ? { id: row.booth!.id!, name: row.booth!.name!, isPublished: row.booth!.isPublished! } : null;
  const seller = row.seller
    ? { id: row.seller.id, companyName: row.seller.companyName, country: row.seller.country }
    : { id: p.sellerId, companyName: "", country: null };
  return {
    ...productView(p, seller, row.categoryNames ? localizedName(row.categoryNames, locale) : undefined, boothVisible),
    booth,
    // Who to chat with about this product (chat addresses users, contract 5).
    sellerUserId: row.seller?.userId ?? null,
  };
}

/** A product of the caller's store, or 404 (another store's product is never revealed). */
async function ownProduct(db: Db, actor: Actor, id: string): Promise<OwnRow> {
  const sellerId = actingSellerProfileId(actor);
  const p = await loadProduct(db, id);
  if (!p || !sellerId || p.sellerId !== sellerId) throw notFound("Product");
  return p;
}

/** 400 naming each tier out of order on a product of this price and moq (`at` puts every issue on one field). */
function assertTiers(tiers: readonly PriceTier[], price: string, moq: number, at?: string) {
  const issues = tierIssues(tiers, { price, moq });
  if (!issues.length) return;
  const errors = at ? [{ path: at, message: `The current price tiers start at ${tiers[0]!.minQty}: keep the minimum order below it` }] : issues;
  throw new ApiError("validation_failed", `Price tiers out of order: ${issues[0]!.path} ${issues[0]!.message}`, { errors });
}

/**
 * The prices an update puts on the product, for the discount rule: the base price when price or currency
 * is sent, and each tier not already there at the same quantity and price (every tier when the currency
 * changes, since each then means another amount). A tier a person set and the agent left alone is not
 * the agent's discount.
 */
function measuredPrices(p: OwnRow, input: UpdateProductInput, currency: string, tiers: readonly PriceTier<string>[]): Measured[] {
  const out: Measured[] = [];
  if (input.price !== undefined || input.currency !== undefined) out.push({ amount: input.price === undefined ? p.price : input.price.toFixed(2) });
  for (const t of tiers) if (currency !== p.currency || !p.priceTiers.some((o) => sameTiers([o], [t]))) out.push({ amount: t.unitPrice, minQty: t.minQty });
  return out;
}

export async function updateProduct(ctx: Ctx, id: string, input: UpdateProductInput) {
  const { db, actor } = ctx;
  const p = await ownProduct(db, actor, id);
  // The rule is about the product as the update leaves it (contract 9.5), so emptying keywords is refused too.
  const keywordsAfter = input.keywords ?? p.keywords;
  if (actor.type === "ai" && keywordsAfter.length === 0) {
    const why = input.keywords
      ? "An AI seller cannot leave a product without keywords"
      : "This product has no keywords: an AI seller must add them with this update";
    throw new ApiError("keywords_required", `${why} (keywords: zh, en, de, ja, ko, ru, es, fr, pt, ar or hi)`, {
      status: 400,
      errors: [{ path: "keywords", message: "Required for AI accounts" }],
    });
  }
  const categoryId = input.category ? await resolveCategory(db, input.category) : undefined;
  return db.transaction(async (tx) => {
    if (input.boothId && input.boothId !== p.boothId) await assertBoothRoom(tx, p.sellerId, input.boothId, p.id);
    const set: Partial<typeof products.$inferInsert> = { updatedAt: new Date() };
    if (input.title !== undefined) set.title = input.title;
    if (input.description !== undefined) set.description = input.description;
    if (categoryId) set.categoryId = categoryId;
    if (input.moq !== undefined) set.moq = input.moq;
    if (input.acceptsOEM !== undefined) set.acceptsOEM = input.acceptsOEM;
    if (input.images !== undefined) set.images = input.images;
    if (input.mainImageUrl !== undefined) set.mainImageUrl = input.mainImageUrl;
    if (input.keywords !== undefined) set.keywords = input.keywords;
    if (input.boothId !== undefined) set.boothId = input.boothId;
    if (input.isHidden !== undefined) set.isHidden = input.isHidden;
    let pendingApproval: { id: string; rule: string } | null = null;
    const moq = input.moq ?? p.moq;
    const next = { amount: input.price === undefined ? p.price : input.price.toFixed(2), currency: input.currency ?? p.currency };
    const nextTiers = input.priceTiers === undefined ? p.priceTiers : storedTiers(input.priceTiers);
    // The tiers are checked on the product as it would be, so a new price or moq alone cannot leave them out of order.
    if (input.priceTiers !== undefined || input.price !== undefined || input.moq !== undefined) assertTiers(nextTiers, next.amount, moq);
    if (input.price !== undefined || input.currency !== undefined || input.priceTiers !== undefined) {
      const old = { amount: p.price, currency: p.currency };
      // Price, currency and tiers move together, or not at all (contract 9.2, 9.4): a change an AI seller
      // may not make alone waits whole for its guardian, and the rest of the update applies now.
      const hold =
        actor.type === "ai"
          ? await sellerPriceChangeRule(
              { db: tx, actor },
              old,
              referenceOf(p),
              next,
              measuredPrices(p, input, next.currency, nextTiers),
              input.currency === undefined ? "price" : "currency",
            )
          : null;
      if (hold && actor.type === "ai") {
        // What stays on the product meanwhile must still be in order with the moq applied now.
        if (input.moq !== undefined) assertTiers(p.priceTiers, p.price, moq, "moq");
        const tiers = { old: shownTiers(p.priceTiers), new: shownTiers(nextTiers) };
        const summary = { item: p.title, productId: p.id, listPrice: Number(p.price), unitPrice: Number(next.amount), currency: next.currency, ...hold, tiers };
        const a = await requestApproval({ ...ctx, db: tx, actor }, { kind: "price", subjectId: p.id, summary, reason: input.reason });
        pendingApproval = { id: a.id, rule: hold.rule };
      } else {
        set.price = next.amount;
        set.currency = next.currency;
        set.priceTiers = nextTiers;
        // A person's price is the new reference; an agent's leaves the reference where it was.
        if (actor.type !== "ai") Object.assign(set, { referencePrice: next.amount, referenceCurrency: next.currency });
        else if (p.referencePrice === null) Object.assign(set, { referencePrice: p.price, referenceCurrency: p.currency });
      }
    }
    // The search columns (several KB, stored out of line, in four GIN indexes) are written again only when
    // the text they come from changes or was normalized by an older version: a price or moq update leaves
    // them as they are (issue #12: writing them anew re-compressed and re-stored them on every update).
    if (set.title !== undefined || set.description !== undefined || set.keywords !== undefined || p.searchVersion !== SEARCH_NORMALIZATION_VERSION) {
      const merged = { title: set.title ?? p.title, description: set.description ?? p.description, keywords: set.keywords ?? p.keywords };
      Object.assign(set, searchColumns(merged));
    }
    const [row] = await tx.update(products).set(set).where(eq(products.id, p.id)).returning(shownProductColumns);
    return { ...productView(row!, await sellerInfo(tx, p.sellerId), undefined, true), ...(pendingApproval ? { pendingApproval } : {}) };
  });
}

export async function deleteProduct(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const p = await ownProduct(db, actor, id);
  // Soft delete: orders and inquiries keep pointing at what was bought or asked about.
  await db.update(products).set({ deletedAt: new Date(), boothId: null, updatedAt: new Date() }).where(eq(products.id, p.id));
  return { id: p.id, deleted: true as const };
}
