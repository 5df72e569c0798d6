// Tools for the negotiation steps of contract 9.4: inquiries, purchase requirements and their quotes,
// and offers (counter, accept, decline).
import { defaultSide } from "@/lib/services/trade/common";
import * as buyerInquiries from "@/lib/api/handlers/buyer-inquiries";
import * as closeInquiry from "@/lib/api/handlers/buyer-inquiries-id-close";
import * as buyerRequirements from "@/lib/api/handlers/buyer-requirements";
import * as closeRequirement from "@/lib/api/handlers/buyer-requirements-id-close";
import * as compareQuotes from "@/lib/api/handlers/buyer-requirements-id-quotes";
import * as offerById from "@/lib/api/handlers/offers-id";
import * as offerAccept from "@/lib/api/handlers/offers-id-accept";
import * as offerCounter from "@/lib/api/handlers/offers-id-counter";
import * as offerDecline from "@/lib/api/handlers/offers-id-decline";
import * as offersList from "@/lib/api/handlers/offers";
import * as requirementsBoard from "@/lib/api/handlers/requirements";
import * as quoteRequirement from "@/lib/api/handlers/requirements-id-quotes";
import * as respondToInquiry from "@/lib/api/handlers/seller-inquiries-id-respond";
import * as sellerInquiries from "@/lib/api/handlers/seller-inquiries";
import type { ToolDef } from "./tool-def";

export const DEAL_TOOLS: readonly ToolDef[] = [
  { name: "create_inquiry", description: "Ask a store about a product (productId, message).", route: buyerInquiries.POST },
  {
    name: "list_inquiries",
    description: "Inquiries you sent (as=buyer) or your store received (as=seller), with replies; filter by status.",
    route: {
      by: "as",
      default: defaultSide,
      description: "buyer: inquiries you sent; seller: inquiries to your store. Default: seller for an AI_SELLER, buyer for everyone else",
      routes: { buyer: buyerInquiries.GET, seller: sellerInquiries.GET },
    },
  },
  {
    name: "respond_inquiry",
    description:
      "Reply to an inquiry to your store (inquiryId, message), optionally quoting a price (quotedPrice, currency, quantity): a quote is an offer the buyer may accept.",
    route: respondToInquiry.POST,
    rename: { inquiryId: "id" },
  },
  { name: "close_inquiry", description: "Close an inquiry you sent (inquiryId) once it is settled.", route: closeInquiry.POST, rename: { inquiryId: "id" } },
  {
    name: "post_requirement",
    description: "Post a purchase requirement for stores to quote on: title, description, quantity, optional budget (in currency) and categoryId.",
    route: buyerRequirements.POST,
  },
  {
    name: "list_my_requirements",
    description: "The purchase requirements you posted, newest first; filter by status or words (q).",
    route: buyerRequirements.GET,
  },
  {
    name: "compare_quotes",
    description: "The stores' quotes on a requirement you posted (requirementId), side by side, with prices also converted to the requirement's currency.",
    route: compareQuotes.GET,
    rename: { requirementId: "id" },
  },
  {
    name: "close_requirement",
    description: "Close a requirement you posted (requirementId): no more quotes.",
    route: closeRequirement.POST,
    rename: { requirementId: "id" },
  },
  {
    name: "list_requirements",
    description:
      "Stores only: open purchase requirements posted by buyers, newest first, to quote on. Filter by words (q), category (with subcategories), currency, and minBudget/maxBudget (in currency, USD by default, compared at reference rates).",
    route: requirementsBoard.GET,
  },
  {
    name: "quote_requirement",
    description:
      "Stores only: quote on an open requirement (requirementId, unitPrice, currency, quantity, message, optional productId of your store and validUntil, default 14 days). Replaces your earlier open quote on it. Name a productId if the buyer should be able to accept it into an order. As an AI seller, a quote more than your maxDiscountPercent below the product's reference price waits for your guardian (pendingApproval in the answer).",
    route: quoteRequirement.POST,
    rename: { requirementId: "id" },
  },
  {
    name: "list_offers",
    description:
      "Your offers in every negotiation (requirement quotes and inquiry quotes), newest first, each with its thread: as=buyer or as=seller for one side, status=open for live ones. awaitingYou marks an open offer from the other side you may counter_offer, decline_offer or (as buyer) accept_offer.",
    route: offersList.GET,
  },
  { name: "get_offer", description: "One offer (offerId) with its thread, as either side of it.", route: offerById.GET, rename: { offerId: "id" } },
  {
    name: "counter_offer",
    description:
      "Answer an open offer you received (offerId) with your own unitPrice and quantity (same product and currency) and an optional message; the offer answered becomes superseded.",
    route: offerCounter.POST,
    rename: { offerId: "id" },
  },
  {
    name: "accept_offer",
    description:
      "Buyers only: accept a store's open offer (offerId). Places an order at the offer's unit price, quantity and currency. Over your mandate (see get_my_mandate) the order and the offer wait for your guardian; give a reason for the guardian. Errors: offer_expired, offer_not_orderable (a quote without a product), invalid_state (no longer open).",
    route: offerAccept.POST,
    rename: { offerId: "id" },
  },
  { name: "decline_offer", description: "Decline an open offer you received (offerId).", route: offerDecline.POST, rename: { offerId: "id" } },
];
