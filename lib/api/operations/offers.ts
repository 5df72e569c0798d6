// Offers and their threads (contract 9.4): quotes on requirements, counter-offers, acceptance.
import { z } from "zod";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import {
  AcceptAnswer,
  AcceptOfferBody,
  CounterOfferBody,
  OfferAnswer,
  OfferDetail,
  OfferListQuery,
  OfferPage,
  QuoteComparison,
  QuoteRequirementBody,
} from "@/lib/schemas/offers";
import { defineOperation } from "../operation";

const user = { access: "user" } as const;
const tags = ["Offers"];

export const quoteRequirementOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/requirements/{id}/quotes",
  operationId: "quoteRequirement",
  summary: "Quote on an open purchase requirement (a store)",
  description:
    "Makes an offer in the negotiation between your store and the requirement's buyer (one per store and requirement), replacing your open offer there. `validUntil` defaults to 14 days and may be at most 90 days ahead. A quote without `productId` can be compared but not accepted into an order. An AI seller's quote for a product more than `maxDiscountPercent` below the product's reference price waits for its guardian (`pendingApproval`) and stays hidden from the buyer until approved; a quote without a product has no reference price and is not held. Self-trade rules apply (403 `self_trade_forbidden`); quoting on your own requirement is 403 `forbidden`.",
  tags,
  permission: "inquiry.respond",
  params: IdParam,
  body: QuoteRequirementBody,
  responses: { 201: { description: "Offer made (or held)", schema: OfferAnswer }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const compareQuotesOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/buyer/requirements/{id}/quotes",
  operationId: "compareQuotes",
  summary: "Compare the quotes on one of your requirements",
  description:
    "Every store's negotiation on the requirement with its latest offer you may see, its product (with MOQ) and the prices converted to the requirement's currency (USD without one) at the platform's reference rates. Another buyer's requirement is 404.",
  tags,
  permission: "none",
  action: "offer.list",
  params: IdParam,
  responses: { 200: { description: "Quotes side by side", schema: QuoteComparison }, ...errorResponses(401, 404, 429) },
});

export const listOffersOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/offers",
  operationId: "listOffers",
  summary: "Your offers, as buyer and as store, newest first",
  description:
    "The offers of every negotiation you take part in: as the buyer, or as the store you act for (`as` narrows to one side; `status=open` with `awaitingYou` shows what is waiting for your answer). Offers held for a guardian are shown only to the side that made them.",
  tags,
  permission: "none",
  action: "offer.list",
  query: OfferListQuery,
  responses: { 200: { description: "Offers", schema: OfferPage }, ...errorResponses(400, 401, 429) },
});

export const getOfferOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/offers/{id}",
  operationId: "getOffer",
  summary: "One offer with its whole negotiation",
  description: "The offer and every offer of its thread you may see, oldest first. Only the thread's buyer and store see it (404 for anyone else).",
  tags,
  permission: "none",
  action: "offer.view",
  params: IdParam,
  responses: { 200: { description: "Offer and thread", schema: OfferDetail }, ...errorResponses(401, 404, 429) },
});

export const counterOfferOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/offers/{id}/counter",
  operationId: "counterOffer",
  summary: "Answer an open offer you received with your own terms",
  description:
    "The side that received the open offer answers it with a new unit price and quantity (same product and currency); the answered offer becomes `superseded`. AI accounts need `inquiry.create` (buyer) or `inquiry.respond` (store). An AI seller's counter too far below the product's reference price waits for its guardian. 409 `invalid_state` when the offer is no longer open; 403 `forbidden` for your own offer.",
  tags,
  permission: "none",
  action: "offer.counter",
  params: IdParam,
  body: CounterOfferBody,
  responses: { 201: { description: "Counter-offer made (or held)", schema: OfferAnswer }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const declineOfferOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/offers/{id}/decline",
  operationId: "declineOffer",
  summary: "Decline an open offer you received",
  description: "AI accounts need `inquiry.create` (buyer) or `inquiry.respond` (store). 409 `invalid_state` when the offer is no longer open.",
  tags,
  permission: "none",
  action: "offer.decline",
  params: IdParam,
  responses: { 200: { description: "Declined", schema: z.object({ offer: OfferAnswer.shape.offer }) }, ...errorResponses(401, 403, 404, 409, 429) },
});

export const acceptOfferOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/offers/{id}/accept",
  operationId: "acceptOffer",
  summary: "Accept a store's open offer: an order at its price, quantity and currency",
  description:
    "The buyer only. Places an order exactly as POST /api/orders does, at the offer's unit price, quantity and currency, with `order.offerId` set; of two concurrent acceptances one wins (409 `invalid_state`). Past `validUntil`: 409 `offer_expired`. A quote that names no product (and no inquiry's product) cannot be ordered: 409 `offer_not_orderable`. An AI buyer's acceptance over its mandate is held: the order waits as `pending_guardian_approval` and so does the offer, until the guardian approves (offer accepted, order placed) or rejects (offer open again while valid).",
  tags,
  permission: "order.place",
  params: IdParam,
  body: AcceptOfferBody,
  responses: { 201: { description: "Order placed (or held)", schema: AcceptAnswer }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});
