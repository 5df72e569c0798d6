// Inquiries, purchase requirements and orders (contract 5).
import { z } from "zod";
import { PageQuery } from "./common";
import { Currency, Price } from "./products";

const Id = z.string().trim().min(1).max(100);
const Text = (max: number) => z.string().trim().min(1, "Cannot be empty").max(max);
const Reason = z.string().trim().max(1000).optional().meta({ description: "AI accounts: why, shown to the guardian when the action is held for approval" });
const Paging = PageQuery.shape;

export const CreateInquiryBody = z.object({ productId: Id, message: Text(5000) }).meta({ id: "CreateInquiry" });
export const RespondInquiryBody = z
  .object({
    message: Text(5000),
    quotedPrice: Price.optional(),
    currency: Currency.optional(),
    quantity: z
      .number()
      .int()
      .min(1)
      .max(1_000_000_000)
      .optional()
      .meta({ description: "With quotedPrice: the units the quote is for (default 1); the quote becomes an offer the buyer can accept (contract 9.4)" }),
    reason: Reason,
  })
  .meta({ id: "RespondInquiry" });
export const InquiryListQuery = z.object({ status: z.enum(["new", "replied", "closed"]).optional(), ...Paging });

const Party = z.object({ id: z.string(), username: z.string(), isAI: z.boolean() });
export const InquiryReplySchema = z.object({
  id: z.string(),
  message: z.string(),
  quotedPrice: z.number().nullable(),
  currency: z.string().nullable(),
  offerId: z.string().nullable().meta({ description: "The offer a quoted reply made: its negotiation is at GET /api/offers/{offerId}" }),
  sentByAI: z.boolean(),
  status: z.enum(["visible", "pending_guardian_approval", "rejected", "expired"]),
  createdAt: z.string(),
});
export const InquirySchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    product: z.object({ id: z.string(), title: z.string(), price: z.number(), currency: z.string() }),
    sellerId: z.string(),
    seller: z.object({ id: z.string(), companyName: z.string() }),
    buyerId: z.string(),
    buyer: Party,
    message: z.string(),
    status: z.enum(["new", "replied", "closed"]),
    sentByAI: z.boolean(),
    createdAt: z.string(),
    replies: z.array(InquiryReplySchema),
  })
  .meta({ id: "Inquiry" });
export const InquiryPage = z.object({ inquiries: z.array(InquirySchema), page: z.number(), limit: z.number(), total: z.number() }).meta({ id: "InquiryPage" });

export const CreateRequirementBody = z
  .object({
    title: Text(200),
    description: z.string().trim().max(10_000).optional(),
    budget: Price.optional(),
    currency: Currency.optional(),
    categoryId: Id.optional().meta({ description: "The category of the goods wanted (stores filter the board by it)" }),
    quantity: z.number().int().min(1).max(1_000_000_000).optional().meta({ description: "Units wanted", example: 5000 }),
  })
  .refine((v) => v.budget === undefined || v.currency !== undefined, { path: ["currency"], message: "Required with a budget" })
  // The rule above, for readers of the OpenAPI document: no budget, or a currency with it.
  .meta({ id: "CreateRequirement", anyOf: [{ not: { properties: { budget: {} }, required: ["budget"] } }, { required: ["currency"] }] });
export const RequirementListQuery = z.object({ status: z.enum(["open", "closed"]).optional(), q: z.string().max(200).optional(), ...Paging });
const Budget = z.coerce.number().finite().min(0).max(999_999_999_999.99);
export const RequirementBoardQuery = RequirementListQuery.extend({
  q: z.string().max(200).optional().meta({ description: "Words in the title or description" }),
  category: Id.optional().meta({ description: "A category id: requirements in it or any category below it" }),
  minBudget: Budget.optional().meta({ description: "Budget at least this, in `currency` (USD by default), compared at the reference rates" }),
  maxBudget: Budget.optional().meta({ description: "Budget at most this, in `currency` (USD by default), compared at the reference rates" }),
  currency: Currency.optional().meta({ description: "Only requirements budgeted in this currency; also the currency of minBudget/maxBudget" }),
  sort: z.enum(["newest"]).default("newest").meta({ description: "Newest first (the only order)" }),
});
export const RequirementSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    budget: z.number().nullable(),
    currency: z.string().nullable(),
    categoryId: z.string().nullable(),
    quantity: z.number().nullable().meta({ description: "Units wanted" }),
    status: z.enum(["open", "closed"]),
    buyerId: z.string(),
    buyer: Party.optional(),
    sentByAI: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: "Requirement" });
export const RequirementPage = z.object({ requirements: z.array(RequirementSchema), page: z.number(), limit: z.number(), total: z.number() });

export const PlaceOrderBody = z
  .object({ productId: Id, quantity: z.number().int().min(1).max(1_000_000_000), note: z.string().trim().max(2000).optional(), reason: Reason })
  .meta({ id: "PlaceOrder" });
export const OrderListQuery = z.object({
  as: z
    .enum(["buyer", "seller"])
    .optional()
    .meta({ description: "Whose orders: yours as buyer, or your store's as seller. Default: seller for an AI_SELLER, buyer for everyone else." }),
  status: z.enum(["pending_guardian_approval", "placed", "confirmed", "fulfilled", "cancelled", "rejected", "expired"]).optional(),
  ...Paging,
});
export const OrderSchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    product: z.object({ id: z.string(), title: z.string() }),
    buyerId: z.string(),
    buyer: Party,
    sellerId: z.string(),
    seller: z.object({ id: z.string(), companyName: z.string() }),
    quantity: z.number(),
    unitPrice: z.number(),
    currency: z.string(),
    total: z.number(),
    note: z.string().nullable(),
    offerId: z.string().nullable().meta({ description: "The accepted offer the order was placed from (its price, quantity and currency)" }),
    status: z.enum(["pending_guardian_approval", "placed", "confirmed", "fulfilled", "cancelled", "rejected", "expired"]),
    side: z.enum(["buyer", "seller"]).meta({ description: "Your side of the order: buyer (you placed it) or seller (your store received it)" }),
    sentByAI: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Order" });
export const OrderPage = z.object({ orders: z.array(OrderSchema), page: z.number(), limit: z.number(), total: z.number() }).meta({ id: "OrderPage" });
