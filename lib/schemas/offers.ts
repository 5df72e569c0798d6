// Offers and their threads (contract 9.4): quotes on requirements, counter-offers, acceptance.
import { z } from "zod";
import { PageQuery, Timestamp } from "./common";
import { Currency, Price } from "./products";
import { OrderSchema } from "./trade";

const Reason = z.string().trim().max(1000).optional().meta({ description: "AI accounts: why, shown to the guardian when the action is held for approval" });
const Quantity = z.number().int().min(1).max(1_000_000_000).meta({ description: "Units the offer is for", example: 5000 });
const Message = z
  .string()
  .trim()
  .max(5000)
  .optional()
  .meta({ description: "What the other side reads with the offer", example: "Including USB-C cables; delivery in 30 days" });
const ValidUntil = z.iso
  .datetime({ offset: true })
  .optional()
  .meta({ description: "ISO 8601; the offer expires then (default 14 days from now; at most 90 days ahead)", example: "2026-12-31T23:59:59Z" });

export const QuoteRequirementBody = z
  .object({
    unitPrice: Price.meta({ description: "Price per unit, in `currency`", example: 11.8 }),
    currency: Currency,
    quantity: Quantity,
    message: Message,
    productId: z.string().trim().min(1).max(100).optional().meta({
      description:
        "A product of your store the quote is for. Without one the buyer cannot accept the quote into an order (it has no item), and an AI seller's quote is not measured against a reference price.",
    }),
    validUntil: ValidUntil,
    reason: Reason,
  })
  .meta({
    id: "QuoteRequirement",
    example: { unitPrice: 11.8, currency: "EUR", quantity: 5000, message: "CE certified, 30 days", validUntil: "2026-12-31T23:59:59Z" },
  });

export const CounterOfferBody = z
  .object({
    unitPrice: Price.meta({ description: "Price per unit, in the currency of the offer answered", example: 10.9 }),
    quantity: Quantity,
    message: Message,
    validUntil: ValidUntil,
    reason: Reason,
  })
  .meta({ id: "CounterOffer", example: { unitPrice: 10.9, quantity: 6000, message: "We take 6,000 at 10.90" } });

export const AcceptOfferBody = z
  .object({ reason: Reason })
  .optional()
  .meta({
    id: "AcceptOffer",
    description: "Optional; an AI buyer may say why (shown to its guardian if the order is held)",
    example: { reason: "Best of three quotes" },
  });

export const OFFER_STATUS_VALUES = ["open", "accepted", "declined", "superseded", "expired", "pending_guardian_approval"] as const;

export const OfferListQuery = z.object({
  as: z
    .enum(["buyer", "seller"])
    .optional()
    .meta({ description: "Only the negotiations where you are the buyer, or your store is the seller (default: both)" }),
  status: z.enum(OFFER_STATUS_VALUES).optional().meta({ description: "Only offers in this status (`open` for those still to be answered)" }),
  ...PageQuery.shape,
});

const Amount = z.object({ amount: z.number(), currency: z.string() });

export const OfferSchema = z
  .object({
    id: z.string(),
    threadId: z.string(),
    from: z.enum(["buyer", "seller"]).meta({ description: "The side that made the offer" }),
    productId: z.string().nullable().meta({ description: "The product offered (a quote on a requirement may name none)" }),
    unitPrice: z.number(),
    currency: z.string(),
    quantity: z.number(),
    total: z.number().meta({ description: "unitPrice x quantity, exact to the cent" }),
    message: z.string(),
    validUntil: Timestamp,
    status: z.enum(OFFER_STATUS_VALUES).meta({
      description:
        "open (can be answered), accepted (an order was placed), declined, superseded (answered by a newer offer), expired (past validUntil), pending_guardian_approval (held for an AI account's guardian: shown only to that account's side)",
    }),
    side: z.enum(["buyer", "seller"]).meta({ description: "Your side in this negotiation" }),
    awaitingYou: z.boolean().meta({ description: "True when the offer is open and from the other side: you may counter, decline or (buyer) accept it" }),
    sentByAI: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "Offer" });

const Party = z.object({ id: z.string(), username: z.string(), isAI: z.boolean() });

export const ThreadSchema = z
  .object({
    id: z.string(),
    inquiryId: z.string().nullable(),
    requirementId: z.string().nullable(),
    subject: z.object({ type: z.enum(["inquiry", "requirement"]), id: z.string(), title: z.string() }).meta({ description: "What is negotiated" }),
    store: z.object({ id: z.string(), companyName: z.string() }),
    buyer: Party,
    side: z.enum(["buyer", "seller"]),
    offers: z.array(OfferSchema).meta({ description: "The offers you may see, oldest first" }),
  })
  .meta({ id: "OfferThread" });

export const OfferAnswer = z.object({
  offer: OfferSchema,
  pendingApproval: z.object({ id: z.string(), rule: z.string() }).optional().meta({ description: "Held for the AI account's guardian" }),
});
export const AcceptAnswer = OfferAnswer.extend({
  order: OrderSchema.meta({ description: "The order placed at the offer's terms (held when pending approval)" }),
});
export const OfferDetail = z.object({ offer: OfferSchema, thread: ThreadSchema });
export const OfferPage = z.object({
  offers: z.array(OfferSchema.extend({ thread: ThreadSchema.omit({ offers: true }) })),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
});

export const QuoteComparison = z
  .object({
    requirement: z.object({
      id: z.string(),
      title: z.string(),
      quantity: z.number().nullable(),
      budget: z.number().nullable(),
      currency: z.string().nullable(),
    }),
    currency: z.string().meta({ description: "The currency every `converted` amount is in: the requirement's, else USD" }),
    quotes: z.array(
      z.object({
        threadId: z.string(),
        store: z.object({ id: z.string(), companyName: z.string() }),
        product: z.object({ id: z.string(), title: z.string(), moq: z.number() }).nullable(),
        offer: OfferSchema.nullable().meta({ description: "The latest offer of the negotiation you may see" }),
        converted: z
          .object({ unitPrice: Amount.shape.amount, total: Amount.shape.amount })
          .nullable()
          .meta({ description: "The offer's prices at the reference rates in `currency` (null without a rate)" }),
      }),
    ),
  })
  .meta({ id: "QuoteComparison" });
