// AI account shapes (contract 3).
import { z } from "zod";
import { MONEY_MAX, PageQuery } from "./common";
import { PERMISSION_NAMES } from "@/lib/ai/permissions";
import { Password } from "./accounts";
import { Currency } from "./money";

export const AiRoleSchema = z.enum(["AI_BUYER", "AI_SELLER"]);

export const CreateAiAccountBody = z.object({ role: AiRoleSchema, password: Password }).meta({ id: "CreateAiAccount" });

export const PermissionMapSchema = z
  .object(Object.fromEntries(PERMISSION_NAMES.map((p) => [p, z.boolean()])) as Record<string, z.ZodBoolean>)
  .meta({ id: "PermissionMap" });

export const AiAccountSchema = z
  .object({
    aiUserId: z.string(),
    username: z.string().meta({ example: "acme_AI_BUYER" }),
    role: AiRoleSchema,
    disabled: z.boolean(),
    permissions: PermissionMapSchema,
  })
  .meta({ id: "AiAccount" });

// 1e12 itself does not fit the column (a 500 before): the column's own maximum.
const Money = z.number().finite().min(0).max(MONEY_MAX);

export const AiAccountDetailSchema = AiAccountSchema.extend({
  mandateCurrency: z
    .string()
    .meta({ description: "ISO 4217 currency of the amounts below; every order is converted to it at the reference rates", example: "EUR" }),
  orderApprovalThreshold: z.number().meta({
    description:
      "In the mandate currency: an order (or task reward) above this, or one that with the agent's other orders to the same store in the last 24 hours comes above it, waits for the guardian",
  }),
  maxDiscountPercent: z.number().meta({ description: "Quotes/prices cheaper than list by more than this wait for the guardian" }),
  monthlyBudget: z.number().nullable().meta({
    description:
      "AI_BUYER only, in the mandate currency: the calendar month's (UTC) orders and task rewards across all stores and currencies, converted; null means none",
  }),
  createdAt: z.string(),
}).meta({ id: "AiAccountDetail" });

export const AiUserIdQuery = z.object({ aiUserId: z.string().min(1).max(100) });

export const PatchAiAccountBody = z
  .object({
    aiUserId: z.string().min(1).max(100),
    disabled: z.boolean().optional().meta({ description: "false re-enables; true disables (revokes every session)" }),
    mandateCurrency: Currency.optional().meta({
      description: "ISO 4217 code with a reference rate (GET /api/fx-rates): the currency the amounts are in. Changing it keeps the numbers as they are",
      example: "EUR",
    }),
    orderApprovalThreshold: Money.optional().meta({ description: "In the mandate currency, at least 0", example: 2000 }),
    maxDiscountPercent: z.number().finite().min(0).max(100).optional().meta({ example: 10 }),
    monthlyBudget: Money.nullable().optional().meta({ description: "AI_BUYER only, in the mandate currency; null removes it", example: 2000 }),
    password: Password.optional().meta({
      description: "A new password for the agent (8-128 characters, as at registration); every session, token and API key of the agent ends",
      example: "new-agent-secret-2026",
    }),
  })
  .meta({
    id: "PatchAiAccount",
    example: { aiUserId: "0193a4f2-7c1e-7b3a-9f00-2d5c8e1a4b6f", mandateCurrency: "EUR", orderApprovalThreshold: 2000, monthlyBudget: 2000 },
  });

export const SetPermissionBody = z
  .object({ aiUserId: z.string().min(1).max(100), permission: z.string().min(1).max(100).meta({ example: "product.delete" }), isAllowed: z.boolean() })
  .meta({ id: "SetPermission" });

const BoolString = z.enum(["true", "false"]).transform((v) => v === "true");

export const AuditLogQuery = z.object({
  aiUserId: z.string().min(1).max(100),
  action: z.string().max(100).optional(),
  success: BoolString.optional(),
  from: z.coerce.date().optional().meta({ description: "ISO 8601, inclusive" }),
  to: z.coerce.date().optional().meta({ description: "ISO 8601, inclusive" }),
  format: z.enum(["json", "csv"]).default("json"),
  ...PageQuery.shape,
});

export const AuditLogEntrySchema = z
  .object({
    id: z.string(),
    seq: z.number(),
    action: z.string(),
    details: z.string(),
    ip: z.string(),
    timestamp: z.string(),
    success: z.boolean(),
    hash: z.string(),
    refusedCount: z
      .number()
      .optional()
      .meta({ description: "On a `rate_limited` row: requests refused by the rate tier in that window so far (one row per window, contract 9.1)" }),
  })
  .meta({ id: "AuditLogEntry" });

export const AuditLogPage = z
  .object({
    logs: z.array(AuditLogEntrySchema),
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    totalRelation: z.enum(["eq", "gte"]).meta({
      description: "`gte` when a filtered count stopped at 10,000 matches (`total` is then a lower bound); unfiltered totals are exact",
    }),
    chainValid: z.boolean().meta({ description: "false when any stored row was altered, removed or reordered" }),
    chainBrokenAt: z
      .number()
      .nullable()
      .meta({ description: "The seq of the first row whose link does not hold (altered, or after a removed row); null when valid" }),
    chainVerifiedThrough: z.number().meta({
      description: "The chain is verified from the first row through this seq (incrementally, from the last verified row; a long backlog over several reads)",
    }),
    actions: z.array(z.string()).meta({ description: "Every action name in this account's log, for filters" }),
  })
  .meta({ id: "AuditLogPage" });

const Amount = z.object({ amount: z.number().meta({ description: "Exact to the cent", example: 590.49 }), currency: z.string() });

const Tier = z.object({ minQty: z.number().meta({ description: "From this quantity on" }), unitPrice: z.number().meta({ description: "Exact to the cent" }) });

/** What exactly an approval asks (contract 9.2): the figures that take effect when the guardian approves. */
export const ApprovalSummarySchema = z
  .looseObject({
    item: z.string().meta({ description: "The product or task title" }),
    productId: z.string().optional(),
    quantity: z.number().optional(),
    unitPrice: z.number().optional(),
    listPrice: z.number().optional(),
    total: z.number().optional(),
    currency: z.string().optional(),
    counterparty: z.object({ id: z.string(), name: z.string() }).optional().meta({ description: "The store (orders) or buyer (quotes)" }),
    rule: z.string().meta({ description: "Why it is held, in English (the guardian page shows it translated from ruleCode and ruleParams)" }),
    ruleCode: z
      .enum(["threshold", "store24h", "monthlyBudget", "discount"])
      .optional()
      .meta({ description: "Which limit: the order alone, the 24-hour total to one store, the month's budget, or the discount from the reference price" }),
    ruleParams: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: "The figures of the rule (decimal amounts and currency codes), for a translated text" }),
    converted: Amount.optional().meta({ description: "Orders and task rewards: the total in the guardian's mandate currency at the reference rates" }),
    price: z
      .object({
        old: Amount.meta({ description: "The product's price when the change was asked" }),
        new: Amount.meta({ description: "The price and currency that take effect on approval" }),
        reference: Amount.meta({ description: "The reference price (last set by a person of the store or approved)" }),
        newInReference: z
          .number()
          .meta({ description: "The deepest new price (the base price, or the lowest price tier the change puts) converted to the reference currency" }),
      })
      .optional()
      .meta({ description: "Price changes and quotes: what is measured against what" }),
    tiers: z
      .object({
        old: z.array(Tier).meta({ description: "The product's price tiers when the change was asked" }),
        new: z.array(Tier).meta({ description: "The price tiers that take effect on approval, in the new currency" }),
      })
      .optional()
      .meta({ description: "Product price changes: the quantity price breaks before and after (contract 9.4); applied with the price, or not at all" }),
    quote: z
      .object({
        inquiryId: z.string().optional().meta({ description: "The inquiry answered (quotes on an inquiry)" }),
        requirementId: z.string().optional().meta({ description: "The purchase requirement quoted on (quotes on a requirement)" }),
        offerId: z.string().optional().meta({ description: "The offer sent when approved (contract 9.4)" }),
        inquiryMessage: z.string().meta({ description: "The text of the inquiry or requirement answered" }),
        message: z.string().meta({ description: "The message the buyer would read" }),
      })
      .optional()
      .meta({ description: "Quotes and offers: the inquiry or requirement answered (its text) and the text the buyer would read" }),
  })
  .meta({ id: "ApprovalSummary" });
export type ApprovalSummary = z.infer<typeof ApprovalSummarySchema>;

export const ApprovalSchema = z
  .object({
    id: z.string(),
    aiUserId: z.string(),
    aiUsername: z.string().optional(),
    kind: z.enum(["order", "quote", "price", "task"]),
    subjectId: z.string(),
    summary: ApprovalSummarySchema,
    reason: z.string().nullable(),
    status: z.enum(["pending", "approved", "rejected", "expired"]),
    createdAt: z.string(),
    expiresAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: "Approval" });

export const ApprovalsQuery = z.object({
  status: z.enum(["pending", "approved", "rejected", "expired"]).optional(),
  ...PageQuery.shape,
});

const MoneyField = (description: string) => z.number().meta({ description });

/** GET /api/ai/me: an AI account's own standing (contract 9.2). */
export const AiStandingSchema = z
  .object({
    account: AiAccountSchema.pick({ aiUserId: true, username: true, role: true, disabled: true }),
    guardian: z.object({ id: z.string(), username: z.string() }).meta({ description: "The human who set this mandate and decides what is held" }),
    permissions: PermissionMapSchema.meta({ description: "Every permission and whether the guardian allows it (as GET /api/ai/accounts shows it)" }),
    mandate: AiAccountDetailSchema.pick({ mandateCurrency: true, orderApprovalThreshold: true, monthlyBudget: true, maxDiscountPercent: true }),
    spend: z
      .object({
        currency: z.string().meta({ description: "The mandate currency every amount of `spend` is in", example: "EUR" }),
        month: z.object({
          from: z.string().meta({ description: "Start of the calendar month (UTC) the total counts from", example: "2026-11-01T00:00:00.000Z" }),
          total: MoneyField("This month's orders and task rewards, held ones included, converted at the reference rates"),
          remaining: z.number().nullable().meta({ description: "What the monthly budget leaves (0 when reached); null without a budget" }),
        }),
        last24hByStore: z
          .array(
            z.object({
              storeId: z.string(),
              companyName: z.string(),
              total: MoneyField("Orders to this store in the last 24 hours, held ones included, converted"),
              remainingBeforeApproval: MoneyField("How much more may go to this store within the 24 hours before an order is held (0 when reached)"),
            }),
          )
          .meta({ description: "Stores this agent ordered from in the last 24 hours, largest total first" }),
        unconverted: z
          .array(z.object({ currency: z.string(), total: MoneyField("This month's spend in this currency, in that currency") }))
          .meta({ description: "Spend in currencies without a reference rate, left out of the totals above (empty when everything converts)" }),
      })
      .meta({ description: "What counts against the mandate: placed, confirmed, fulfilled and held orders (and task rewards for the month)" }),
    approvals: z.object({
      pending: z.number().meta({ description: "How many of this agent's actions wait for the guardian now" }),
      items: z.array(ApprovalSchema).meta({ description: "The 20 newest approvals of this agent, any status, newest first (all: GET /api/ai/approvals)" }),
    }),
  })
  .meta({ id: "AiStanding" });
