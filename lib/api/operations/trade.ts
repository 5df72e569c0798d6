import { z } from "zod";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import {
  CreateInquiryBody,
  CreateRequirementBody,
  InquiryListQuery,
  InquiryPage,
  InquirySchema,
  OrderListQuery,
  OrderPage,
  OrderSchema,
  PlaceOrderBody,
  RequirementBoardQuery,
  RequirementListQuery,
  RequirementPage,
  RequirementSchema,
  RespondInquiryBody,
} from "@/lib/schemas/trade";
import { defineOperation } from "../operation";

const Pending = z.object({ id: z.string(), rule: z.string() }).optional().meta({ description: "Held for the AI account's guardian" });
const user = { access: "user" } as const;

export const createInquiryOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/buyer/inquiries",
  operationId: "createInquiry",
  summary: "Send an inquiry about a product",
  tags: ["Inquiries"],
  permission: "inquiry.create",
  body: CreateInquiryBody,
  responses: { 201: { description: "Created", schema: z.object({ inquiry: InquirySchema }) }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const listBuyerInquiriesOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/buyer/inquiries",
  operationId: "listBuyerInquiries",
  summary: "Your inquiries with the store's replies",
  tags: ["Inquiries"],
  permission: "none",
  action: "inquiry.list",
  query: InquiryListQuery,
  responses: { 200: { description: "Inquiries", schema: InquiryPage }, ...errorResponses(400, 401, 429) },
});

export const closeInquiryOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/buyer/inquiries/{id}/close",
  operationId: "closeInquiry",
  summary: "Close one of your inquiries",
  tags: ["Inquiries"],
  permission: "inquiry.create",
  params: IdParam,
  responses: { 200: { description: "Closed", schema: z.object({ inquiry: InquirySchema }) }, ...errorResponses(401, 403, 404, 409, 429) },
});

export const listSellerInquiriesOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/seller/inquiries",
  operationId: "listSellerInquiries",
  summary: "Inquiries to your store (`status=new` for the unanswered)",
  tags: ["Inquiries"],
  permission: "inquiry.respond",
  query: InquiryListQuery,
  responses: { 200: { description: "Inquiries", schema: InquiryPage }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const respondInquiryOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/seller/inquiries/{id}/respond",
  operationId: "respondInquiry",
  summary: "Reply to an inquiry, optionally with a quote",
  description: "An AI seller's quote more than `maxDiscountPercent` below list price waits for its guardian and stays hidden from the buyer until approved.",
  tags: ["Inquiries"],
  permission: "inquiry.respond",
  params: IdParam,
  body: RespondInquiryBody,
  responses: {
    201: { description: "Reply stored", schema: z.object({ inquiry: InquirySchema, pendingApproval: Pending }) },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

export const createRequirementOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/buyer/requirements",
  operationId: "createRequirement",
  summary: "Post a purchase requirement",
  tags: ["Requirements"],
  permission: "inquiry.create",
  body: CreateRequirementBody,
  responses: { 201: { description: "Created", schema: z.object({ requirement: RequirementSchema }) }, ...errorResponses(400, 401, 403, 429) },
});

export const listOwnRequirementsOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/buyer/requirements",
  operationId: "listOwnRequirements",
  summary: "Your purchase requirements",
  tags: ["Requirements"],
  permission: "none",
  action: "requirement.list",
  query: RequirementListQuery,
  responses: { 200: { description: "Requirements", schema: RequirementPage }, ...errorResponses(400, 401, 429) },
});

export const closeRequirementOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/buyer/requirements/{id}/close",
  operationId: "closeRequirement",
  summary: "Close one of your requirements",
  tags: ["Requirements"],
  permission: "inquiry.create",
  params: IdParam,
  responses: { 200: { description: "Closed", schema: z.object({ requirement: RequirementSchema }) }, ...errorResponses(401, 403, 404, 409, 429) },
});

export const browseRequirementsOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/requirements",
  operationId: "browseRequirements",
  summary: "Open purchase requirements, for stores to answer",
  description:
    "Listed only to accounts with a seller profile: a store's owner and its AI_SELLER (which never sees its guardian's or sibling's own requirements). Anyone else gets 403 `seller_profile_required`; a buyer reads its own requirements at `GET /api/buyer/requirements`. Filters: words (`q`), `category` (with the categories below it), `currency`, and budget bounds compared at the reference rates; newest first. Quote on one with POST /api/requirements/{id}/quotes.",
  tags: ["Requirements"],
  permission: "inquiry.respond",
  query: RequirementBoardQuery,
  responses: { 200: { description: "Requirements", schema: RequirementPage }, ...errorResponses(400, 401, 403, 429) },
});

export const placeOrderOp = defineOperation({
  ...user,
  method: "POST",
  path: "/api/orders",
  operationId: "placeOrder",
  summary: "Place an order (quantity at least the product's minimum order)",
  description: "An AI buyer's order over its `orderApprovalThreshold` or past its `monthlyBudget` is held as `pending_guardian_approval`.",
  tags: ["Orders"],
  permission: "order.place",
  body: PlaceOrderBody,
  responses: {
    201: { description: "Placed (or held)", schema: z.object({ order: OrderSchema, pendingApproval: Pending }) },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

export const listOrdersOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/orders",
  operationId: "listOrders",
  summary: "Your orders as buyer, or your store's as seller (`as=seller`)",
  tags: ["Orders"],
  permission: "order.view",
  query: OrderListQuery,
  responses: { 200: { description: "Orders", schema: OrderPage }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const getOrderOp = defineOperation({
  ...user,
  method: "GET",
  path: "/api/orders/{id}",
  operationId: "getOrder",
  summary: "One order (its buyer or its store)",
  tags: ["Orders"],
  permission: "order.view",
  params: IdParam,
  responses: { 200: { description: "Order", schema: z.object({ order: OrderSchema }) }, ...errorResponses(401, 403, 404, 429) },
});

const orderStep = (action: "confirm" | "fulfill" | "cancel", summary: string) =>
  defineOperation({
    ...user,
    method: "POST",
    path: `/api/orders/{id}/${action}`,
    operationId: `${action}Order`,
    summary,
    tags: ["Orders"],
    permission: action === "cancel" ? "order.view" : "order.fulfill",
    params: IdParam,
    responses: { 200: { description: "Updated", schema: z.object({ order: OrderSchema }) }, ...errorResponses(401, 403, 404, 409, 429) },
  });

export const confirmOrderOp = orderStep("confirm", "Confirm a placed order (the store)");
export const fulfillOrderOp = orderStep("fulfill", "Mark a confirmed order fulfilled (the store)");
export const cancelOrderOp = orderStep(
  "cancel",
  "Cancel an order (the buyer while placed or held; the store while placed or confirmed; AI accounts need order.place or order.fulfill for their side)",
);
