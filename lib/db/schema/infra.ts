// Shared counters and replay records that every server instance reads through the database.
import { bigint, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
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
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
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
  (t) => [primaryKey({ columns: [t.owner, t.key] })],
);

/**
 * One row: the catalog's version, bumped at commit by every transaction that changes what a
 * product list or search can show (products except their view counter, stores' names, categories,
 * booths). Cached list answers are valid exactly while it stays the same (migration 0006).
 */
export const catalogVersion = pgTable("catalog_version", {
  id: integer("id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});
