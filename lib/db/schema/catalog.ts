// Categories, products, exhibitions, booths, uploads, brochures and the counters read by analytics.
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { SEARCH_NORMALIZATION_VERSION } from "../../search/normalize";
import { createdAt, id, money, ts, updatedAt } from "./columns";
import { sellerProfiles, users } from "./users";

export const categories = pgTable(
  "categories",
  {
    id: id(),
    slug: text("slug").notNull(),
    parentId: text("parent_id").references((): AnyPgColumn => categories.id, { onDelete: "restrict" }),
    /** Names per locale: { en: "...", zh: "...", ... }. */
    names: jsonb("names").$type<Record<string, string>>().notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("categories_slug_key").on(t.slug), index("categories_parent_idx").on(t.parentId)],
);

export const exhibitions = pgTable(
  "exhibitions",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    venue: text("venue").notNull().default(""),
    bannerUrl: text("banner_url"),
    startsAt: ts("starts_at").notNull(),
    endsAt: ts("ends_at").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("exhibitions_slug_key").on(t.slug), uniqueIndex("exhibitions_name_lower_key").on(sql`lower(${t.name})`)],
);

export type BoothDocument = { url: string; name: string; type: string; size: number };

export const booths = pgTable(
  "booths",
  {
    id: id(),
    sellerId: text("seller_id")
      .notNull()
      .references(() => sellerProfiles.id, { onDelete: "cascade" }),
    exhibitionId: text("exhibition_id").references(() => exhibitions.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    exhibitionName: text("exhibition_name"),
    location: text("location"),
    logoUrl: text("logo_url"),
    bannerUrl: text("banner_url"),
    description: text("description"),
    keywords: text("keywords")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    documents: jsonb("documents")
      .$type<BoothDocument[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    theme: text("theme"),
    colorScheme: text("color_scheme"),
    isPublished: boolean("is_published").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("booths_seller_idx").on(t.sellerId),
    index("booths_exhibition_idx").on(t.exhibitionId),
    // The public booths' list, most recently updated first (GET /api/public/booths): a walk of this index
    // stops after the page instead of sorting every published booth.
    index("booths_published_updated_idx")
      .on(t.updatedAt, t.id)
      .where(sql`${t.isPublished}`),
  ],
);

export type StoredPriceTier = { minQty: number; unitPrice: string };

// The search columns and the short ids and codes filters test are stored MAIN (migration 0032; Drizzle has no
// column storage option): kept in the row instead of moved to the toast table, which every search that read
// them visited row by row. Only what a shown product alone needs (title, description, keywords...) may leave.
export const products = pgTable(
  "products",
  {
    id: id(),
    sellerId: text("seller_id")
      .notNull()
      .references(() => sellerProfiles.id, { onDelete: "cascade" }),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    boothId: text("booth_id").references(() => booths.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    price: money("price").notNull(),
    currency: text("currency").notNull(),
    /**
     * The price an AI_SELLER's changes are measured against (contract 9.2): the last price a human of
     * the store set or the guardian approved. Null means the current price is the reference; it is
     * pinned here the first time an agent changes the price, so the agent's own cuts never lower it.
     */
    referencePrice: money("reference_price"),
    referenceCurrency: text("reference_currency"),
    /**
     * Quantity price breaks (contract 9.4), in the product's currency: minQty strictly ascending and
     * above moq, unitPrice strictly descending and below price. Amounts are kept as decimal strings
     * ("11.80"), like the numeric columns, so no float ever reaches the database.
     */
    priceTiers: jsonb("price_tiers")
      .$type<StoredPriceTier[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    moq: integer("moq").notNull().default(1),
    acceptsOEM: boolean("accepts_oem").notNull().default(false),
    images: text("images")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    mainImageUrl: text("main_image_url"),
    keywords: text("keywords")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isHidden: boolean("is_hidden").notNull().default(false),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    viewCount: integer("view_count").notNull().default(0),
    /**
     * Search columns, computed in lib/search/normalize.ts on every write (the same code normalizes
     * queries): lower-cased, accent-free text of title, description and keywords; the 1- and
     * 2-character n-grams of CJK runs (trigrams cannot index such short queries); whole words; and
     * the normalized keywords for exact matches.
     */
    searchText: text("search_text").notNull().default(""),
    titleNorm: text("title_norm").notNull().default(""),
    cjkGrams: text("cjk_grams")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tokens: text("tokens")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    keywordsNorm: text("keywords_norm")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The SEARCH_NORMALIZATION_VERSION the columns above were computed with (0: unknown, recompute). */
    searchVersion: smallint("search_version").notNull().default(0),
    deletedAt: ts("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A store's newest first (its pages, the product page's related list and its version, lib/pages/versions.ts).
    index("products_seller_idx").on(t.sellerId, t.createdAt),
    index("products_category_idx").on(t.categoryId, t.createdAt),
    index("products_booth_idx").on(t.boothId),
    index("products_created_idx").on(t.createdAt),
    index("products_price_idx").on(t.price),
    // The live (listed) products by category and price: list counts as index-only scans, and the
    // category subtree combined with the keyword and price conditions before touching the heap.
    index("products_live_category_price_idx")
      .on(t.categoryId, t.price)
      .where(sql`${t.deletedAt} is null and not ${t.isHidden}`),
    // The search indexes take each write's entries at once (fastupdate off): with GIN's pending list every
    // search scanned up to 4 MB of unmerged entries while sellers wrote, and the write that filled it merged
    // them all (issue #12, BENCHMARKS.md).
    index("products_search_trgm_idx")
      .using("gin", sql`${t.searchText} gin_trgm_ops`)
      .with({ fastupdate: false }),
    index("products_cjk_grams_idx").using("gin", t.cjkGrams).with({ fastupdate: false }),
    index("products_tokens_idx").using("gin", t.tokens).with({ fastupdate: false }),
    index("products_keywords_norm_idx").using("gin", t.keywordsNorm).with({ fastupdate: false }),
    // Only the rows whose search columns an older normalization computed (lib/search/renormalize.ts): empty
    // once they are recomputed, so a start finds nothing to do in one probe and writes of current rows add no
    // entry. Its predicate names the current version: raising it makes drizzle-kit generate a new index.
    index("products_search_stale_idx")
      .on(t.id)
      .where(sql`${t.searchVersion} < ${sql.raw(String(SEARCH_NORMALIZATION_VERSION))}`),
  ],
);

/** Every stored upload, so storage can be audited and orphaned files found. */
export const uploads = pgTable(
  "uploads",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    type: text("type").notNull(),
    url: text("url").notNull(),
    storageKey: text("storage_key").notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    mimeType: text("mime_type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("uploads_url_key").on(t.url), index("uploads_user_idx").on(t.userId)],
);

export const brochures = pgTable(
  "brochures",
  {
    id: id(),
    sellerId: text("seller_id")
      .notNull()
      .references(() => sellerProfiles.id, { onDelete: "cascade" }),
    boothId: text("booth_id").references(() => booths.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    fileUrl: text("file_url").notNull(),
    productIds: text("product_ids")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    downloadCount: integer("download_count").notNull().default(0),
    sentByAI: boolean("sent_by_ai").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("brochures_seller_idx").on(t.sellerId)],
);

export const brochureDownloads = pgTable(
  "brochure_downloads",
  {
    id: id(),
    brochureId: text("brochure_id")
      .notNull()
      .references(() => brochures.id, { onDelete: "cascade" }),
    sellerId: text("seller_id").notNull(),
    userId: text("user_id"),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("brochure_downloads_seller_day_idx").on(t.sellerId, t.createdAt)],
);

/**
 * Product views as counts per product and UTC minute (migration 0030): a row per view grew by the page load
 * (thousands a second on a busy product) while analytics only ever read per-day sums.
 */
export const productViewCounts = pgTable(
  "product_view_counts",
  {
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sellerId: text("seller_id").notNull(),
    minute: ts("minute").notNull(),
    views: integer("views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.minute] }), index("product_view_counts_seller_minute_idx").on(t.sellerId, t.minute)],
);
