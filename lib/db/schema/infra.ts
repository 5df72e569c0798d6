// Shared counters and replay records that every server instance reads through the database.
import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";

/** Fixed-window request counters (contract 6), one row per caller and window. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull().default(0),
    /** The window's length: rows of request tiers and of sign-in failures differ (sweeps need it). */
    windowSeconds: integer("window_seconds").notNull().default(3600),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.windowStart] }),
    // The sweep of ended windows: per window length, the rows that started before now minus that length.
    index("rate_limits_window_end_idx").on(t.windowSeconds, t.windowStart),
  ],
);

/** `Idempotency-Key` answers, kept 24 h per account (contract 1). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    owner: text("owner").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    // The instance working on an in_flight key (lib/instance.ts); a dead one's key is taken over.
    claimedBy: text("claimed_by"),
    createdAt: createdAt(),
  },
  // By age: answers past their 24 hours are swept (lib/api/idempotency.ts).
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/** What a changed product looked like, for the list cache's matching (lib/services/catalog/catalog-feed.ts). */
export type CatalogState = {
  live: boolean;
  category: string;
  price: string;
  currency: string;
  moq: number;
  oem: boolean;
  seller: string;
  booth: string | null;
  text: string;
  /** Microseconds since 1970 (migration 0020; absent from rows written before it). */
  created?: number;
  /** What the relevance score reads: normalized title, keywords and whole words (migration 0021; absent before it). */
  title?: string;
  keywords?: string[];
  tokens?: string[];
};

/**
 * An append-only feed of catalog changes, one row per changed product (before and after), store
 * name, booth or category, written by triggers (migration 0008) so no write path can forget it.
 * Every instance polls it by transaction id (`tx`, the writer's xid8) to invalidate exactly the
 * cached lists a change can affect; no row is shared by two writers. Rows older than a few minutes
 * are swept.
 */
export const catalogChanges = pgTable(
  "catalog_changes",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tx: bigint("tx", { mode: "number" })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
    at: ts("at")
      .notNull()
      .default(sql`clock_timestamp()`),
    kind: text("kind", { enum: ["product", "seller", "booth", "category", "all"] }).notNull(),
    productId: text("product_id"),
    sellerId: text("seller_id"),
    before: jsonb("before").$type<CatalogState>(),
    after: jsonb("after").$type<CatalogState>(),
  },
  (t) => [index("catalog_changes_tx_idx").on(t.tx), index("catalog_changes_seller_at_idx").on(t.sellerId, t.at)],
);

/**
 * How many listed products (not deleted, not hidden) hold each whole word and CJK n-gram of the search
 * columns, kept by triggers on products (migration 0031): the floor of a one-word search
 * (search-sql.ts termFloorQuery) reads it instead of counting 11,001 matches in the keyword index.
 * A term's count is the sum of its stripes; each writer adds to the stripe of its connection
 * (pg_backend_pid() % 16), so two concurrent writers of one common word rarely wait on one row.
 */
export const catalogTermCounts = pgTable(
  "catalog_term_counts",
  {
    source: text("source", { enum: ["tokens", "cjk_grams"] }).notNull(),
    term: text("term").notNull(),
    stripe: integer("stripe").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.term, t.stripe] })],
);
