// The tool table (contract 7): each MCP tool is one operation's handler in lib/api/handlers (the
// handler carries its operation). The dispatcher (./dispatch.ts) calls it through the gate (`invoke`),
// so validation, permissions, self-trade rules, audit and idempotency are exactly the REST API's;
// the /mcp request itself was counted against the rate tier.
//
// How arguments split: names in the operation's path-parameter schema fill the path, names in its
// query schema the query (as a URL would carry them), everything else the JSON body (a GET takes
// the rest as query). `idempotencyKey` (tools on idempotent POST routes) is the Idempotency-Key.
import type { OperationHandler } from "@/lib/api/route";
import type { Actor } from "@/lib/auth/actor";
import { defaultSide } from "@/lib/services/trade/common";
import * as aiMe from "@/lib/api/handlers/ai-me";
import * as boothById from "@/lib/api/handlers/booths-id";
import * as buyerInquiries from "@/lib/api/handlers/buyer-inquiries";
import * as categories from "@/lib/api/handlers/categories";
import * as chatConversations from "@/lib/api/handlers/chat-conversations";
import * as chatMessages from "@/lib/api/handlers/chat-messages";
import * as exhibitions from "@/lib/api/handlers/exhibitions";
import * as notifications from "@/lib/api/handlers/notifications";
import * as orders from "@/lib/api/handlers/orders";
import * as productById from "@/lib/api/handlers/products-id";
import * as products from "@/lib/api/handlers/products";
import * as productSearch from "@/lib/api/handlers/products-search";
import * as respondToInquiry from "@/lib/api/handlers/seller-inquiries-id-respond";
import * as sellerInquiries from "@/lib/api/handlers/seller-inquiries";
import * as requirementsBoard from "@/lib/api/handlers/requirements";
import * as quoteRequirement from "@/lib/api/handlers/requirements-id-quotes";
import * as offersList from "@/lib/api/handlers/offers";
import * as offerCounter from "@/lib/api/handlers/offers-id-counter";
import * as offerAccept from "@/lib/api/handlers/offers-id-accept";
import * as offerDecline from "@/lib/api/handlers/offers-id-decline";

/** A tool's route is the operation's handler, which carries its operation (method, path, schemas). */
export type ToolRoute = OperationHandler;
/** One route, or a choice of routes by one string argument (e.g. `as: buyer | seller`). */
/** `default` may depend on the caller (contract 9.5: an AI_SELLER's lists default to its store's side). */
export type ToolRoutes = ToolRoute | { by: string; default: (actor: Actor) => string; description: string; routes: Record<string, ToolRoute> };
/** `idArg`: the tool's name for the route's `{id}` path parameter (`offerId`, contract 9.5: ids named `<thing>Id`). */
export type ToolDef = { name: string; description: string; route: ToolRoutes; idArg?: string };

export const TOOLS: readonly ToolDef[] = [
  {
    name: "get_my_mandate",
    description:
      "Your own standing as an AI account: read it before ordering, quoting or changing prices. It tells your limits (permissions; the guardian's mandate: approval threshold, monthly budget and maximum discount, in the mandate currency), what you have spent (this calendar month, and the last 24 hours per store, converted, with what each limit leaves) and what waits for your guardian (pending approvals and the newest with their status). An order past a limit is not refused but held until your guardian approves it.",
    route: aiMe.GET,
  },
  {
    name: "search_products",
    description:
      "Search the catalog: keyword (title, description, multilingual keywords), category (with subcategories), minPrice, maxPrice, currency, maxMoq, acceptsOEM, sellerId, boothId, exhibitionId, sort, page, limit.",
    route: productSearch.GET,
  },
  { name: "get_product", description: "One product with its seller, price, MOQ and keywords.", route: productById.GET },
  { name: "list_categories", description: "Product categories (parentId=root for the top level).", route: categories.GET },
  { name: "list_exhibitions", description: "Upcoming and ongoing exhibitions.", route: exhibitions.GET },
  { name: "get_booth", description: "A booth with its supplier and products.", route: boothById.GET },
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
    description: "Reply to an inquiry to your store (id, message), optionally quoting a price.",
    route: respondToInquiry.POST,
  },
  { name: "create_product", description: "Add a product to your store.", route: products.POST },
  { name: "update_product", description: "Change any fields of a product of your store (id plus the fields).", route: productById.PUT },
  { name: "place_order", description: "Order a product (productId, quantity >= its MOQ).", route: orders.POST },
  { name: "list_orders", description: "Your orders as buyer or as seller.", route: orders.GET },
  {
    name: "send_message",
    description:
      "Send a chat message: to an existing conversation (conversationId, content), to a user (to = user id or username, content, optional productId), or to a store (storeId, content, optional productId; or productId alone: the product's store).",
    route: chatMessages.POST,
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
    idArg: "requirementId",
  },
  {
    name: "list_offers",
    description:
      "Your offers in every negotiation (requirement quotes and inquiry quotes), newest first, each with its thread: as=buyer or as=seller for one side, status=open for live ones. awaitingYou marks an open offer from the other side you may counter_offer, decline_offer or (as buyer) accept_offer.",
    route: offersList.GET,
  },
  {
    name: "counter_offer",
    description:
      "Answer an open offer you received (offerId) with your own unitPrice and quantity (same product and currency) and an optional message; the offer answered becomes superseded.",
    route: offerCounter.POST,
    idArg: "offerId",
  },
  {
    name: "accept_offer",
    description:
      "Buyers only: accept a store's open offer (offerId). Places an order at the offer's unit price, quantity and currency. Over your mandate (see get_my_mandate) the order and the offer wait for your guardian; give a reason for the guardian. Errors: offer_expired, offer_not_orderable (a quote without a product), invalid_state (no longer open).",
    route: offerAccept.POST,
    idArg: "offerId",
  },
  { name: "decline_offer", description: "Decline an open offer you received (offerId).", route: offerDecline.POST, idArg: "offerId" },
  {
    name: "list_conversations",
    description: "Your chat conversations with unread counts, latest first.",
    route: chatConversations.GET,
  },
  {
    name: "list_notifications",
    description:
      "What happened that concerns you, newest first: new inquiries to your store and replies or quotes to yours (kind inquiry), offers (offer), orders placed with your store or status changes of yours (order), chat messages that arrived while you were not connected (message), and your guardian's decisions on your held actions (approval). Each has subjectId (the inquiry, offer, order, conversation or approval to look at next), an English title and event/params. unread=true lists only unread ones; `unread` in the answer counts all unread. Check it at the start of a session instead of polling every list.",
    route: notifications.GET,
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDef> = new Map(TOOLS.map((t) => [t.name, t]));

export function routesOf(tool: ToolDef): ToolRoute[] {
  return "by" in tool.route ? Object.values(tool.route.routes) : [tool.route];
}
