// AI agent accounts: their permissions, the guardian's thresholds, the audit log and approvals.
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, money, ts, updatedAt } from "./columns";
import { users } from "./users";

export const aiPermissions = pgTable(
  "ai_permissions",
  {
    aiUserId: text("ai_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    permission: text("permission").notNull(),
    isAllowed: boolean("is_allowed").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.aiUserId, t.permission] })],
);

/** The guardian's mandate per AI account (contract 9.2): amounts are in `mandateCurrency`. */
export const aiSettings = pgTable("ai_settings", {
  aiUserId: text("ai_user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  mandateCurrency: text("mandate_currency").notNull().default("USD"),
  orderApprovalThreshold: money("order_approval_threshold").notNull().default("5000"),
  maxDiscountPercent: money("max_discount_percent").notNull().default("10"),
  monthlyBudget: money("monthly_budget"),
  updatedAt: updatedAt(),
});

/**
 * Append-only, hash-chained per AI account. No foreign keys on purpose: nothing elsewhere may be
 * blocked by, or cascade into, the audit trail.
 */
export const auditLogs = pgTable(
  "audit_logs",
  {
    id: id(),
    aiUserId: text("ai_user_id").notNull(),
    guardianId: text("guardian_id").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    action: text("action").notNull(),
    details: text("details").notNull().default(""),
    ip: text("ip").notNull().default(""),
    success: boolean("success").notNull(),
    createdAt: createdAt(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    uniqueIndex("audit_logs_account_seq_key").on(t.aiUserId, t.seq),
    index("audit_logs_guardian_idx").on(t.guardianId, t.createdAt),
    // Filters by action, and the list of an account's action names read by skipping through it.
    index("audit_logs_account_action_idx").on(t.aiUserId, t.action, t.seq),
  ],
);

/**
 * How far an account's chain has been verified: the last row checked and its hash. A later check
 * starts after it (and finds a re-hashed chain because this row's hash no longer matches).
 */
export const auditCheckpoints = pgTable("audit_checkpoints", {
  aiUserId: text("ai_user_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  verifiedAt: ts("verified_at").notNull().defaultNow(),
});

/**
 * Requests of an AI account refused by its rate tier: one chained `rate_limited` row per window
 * records the refusal, this counter its running total (a counter, so kept outside the chain).
 */
export const auditRateWindows = pgTable(
  "audit_rate_windows",
  {
    aiUserId: text("ai_user_id").notNull(),
    windowStart: ts("window_start").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    refused: bigint("refused", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.aiUserId, t.windowStart] }), uniqueIndex("audit_rate_windows_seq_key").on(t.aiUserId, t.seq)],
);

export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "expired"] as const;

/** Actions held for the guardian's confirmation (large orders, deep discounts). */
export const approvals = pgTable(
  "approvals",
  {
    id: id(),
    aiUserId: text("ai_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    guardianId: text("guardian_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["order", "quote", "price", "task"] }).notNull(),
    subjectId: text("subject_id").notNull(),
    /** What exactly is asked: item, quantity, price, total, counterparty. */
    summary: jsonb("summary").notNull(),
    reason: text("reason"),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
    decidedAt: ts("decided_at"),
  },
  (t) => [index("approvals_guardian_status_idx").on(t.guardianId, t.status), index("approvals_subject_idx").on(t.subjectId)],
);
