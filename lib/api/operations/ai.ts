import { z } from "zod";
import {
  AiAccountDetailSchema,
  AiUserIdQuery,
  ApprovalSchema,
  ApprovalsQuery,
  AiStandingSchema,
  AuditLogPage,
  AuditLogQuery,
  CreateAiAccountBody,
  PatchAiAccountBody,
  PermissionMapSchema,
  SetPermissionBody,
} from "@/lib/schemas/ai";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

export const createAiAccountOp = defineOperation({
  method: "POST",
  path: "/api/ai/accounts",
  operationId: "createAiAccount",
  summary: "Create an AI agent account (guardian only)",
  description:
    "Username `<guardian>_AI_BUYER` or `<guardian>_AI_SELLER`, one per role per guardian; it shares the guardian's e-mail and signs in by username only. An AI_SELLER needs a guardian with a store.",
  tags: ["AI accounts"],
  access: "human",
  permission: "none",
  action: "ai.account.create",
  body: CreateAiAccountBody,
  responses: { 201: { description: "Created", schema: z.object({ account: AiAccountDetailSchema }) }, ...errorResponses(400, 401, 404, 409, 429) },
});

export const listAiAccountsOp = defineOperation({
  method: "GET",
  path: "/api/ai/accounts",
  operationId: "listAiAccounts",
  summary: "The guardian's AI accounts with permissions and status",
  tags: ["AI accounts"],
  access: "human",
  permission: "none",
  action: "ai.account.list",
  responses: { 200: { description: "AI accounts", schema: z.object({ accounts: z.array(AiAccountDetailSchema) }) }, ...errorResponses(401, 404, 429) },
});

const guardianOnly = { tags: ["AI accounts"], access: "human", permission: "none" } as const;

export const patchAiAccountOp = defineOperation({
  ...guardianOnly,
  method: "PATCH",
  path: "/api/ai/accounts",
  operationId: "updateAiAccount",
  summary: "Re-enable an AI account, set its mandate (currency, threshold, budget, discount), or set a new password",
  description:
    "Any combination of the fields. The mandate (contract 9.2): `orderApprovalThreshold` and `monthlyBudget` are amounts in `mandateCurrency` (default USD, an ISO 4217 code with a reference rate); an AI_BUYER's order is held for the guardian when its total converted to that currency exceeds the threshold, when with the agent's other orders to the same store in the last 24 hours (placed, confirmed, fulfilled or held) it exceeds the threshold, or when it would take the calendar month's converted spend across all stores (task rewards included) past `monthlyBudget`. `password` (same rules as registration) replaces the agent's password and ends every session, token and API key of the agent (its chat sockets close); an AI account cannot change its own password. Another guardian's `aiUserId` is 404.",
  action: "ai.account.update",
  body: PatchAiAccountBody,
  responses: { 200: { description: "Updated", schema: z.object({ account: AiAccountDetailSchema }) }, ...errorResponses(400, 401, 404, 429) },
});

export const deleteAiAccountOp = defineOperation({
  ...guardianOnly,
  method: "DELETE",
  path: "/api/ai/accounts",
  operationId: "disableAiAccount",
  summary: "Disable an AI account: every session, token and chat socket of it ends at once",
  action: "ai.account.disable",
  query: AiUserIdQuery,
  responses: { 200: { description: "Disabled", schema: z.object({ account: AiAccountDetailSchema }) }, ...errorResponses(400, 401, 404, 429) },
});

export const setPermissionOp = defineOperation({
  ...guardianOnly,
  method: "PUT",
  path: "/api/ai/permissions",
  operationId: "setAiPermission",
  summary: "Allow or refuse one permission for an AI account",
  action: "ai.permission.set",
  body: SetPermissionBody,
  responses: {
    200: { description: "The full permission map", schema: z.object({ aiUserId: z.string(), permissions: PermissionMapSchema }) },
    ...errorResponses(400, 401, 404, 429),
  },
});

export const auditLogsOp = defineOperation({
  ...guardianOnly,
  method: "GET",
  path: "/api/ai/audit-logs",
  operationId: "listAuditLogs",
  summary: "An AI account's audit log, newest first (format=csv downloads it)",
  action: "ai.audit.read",
  query: AuditLogQuery,
  responses: {
    200: { description: "Log page (JSON) or the filtered log (text/csv)", schema: AuditLogPage, alternatives: { "text/csv": z.string() } },
    ...errorResponses(400, 401, 404, 429),
  },
});

export const listApprovalsOp = defineOperation({
  ...guardianOnly,
  access: "user",
  method: "GET",
  path: "/api/ai/approvals",
  operationId: "listApprovals",
  summary: "Actions of the guardian's AI accounts waiting for (or decided by) the guardian",
  description:
    "A guardian sees the approvals of all its AI accounts; an AI account sees only its own (to know what waits, was approved, rejected or expired), newest first. Only the guardian approves or rejects. Expired items are marked `expired` before the list is read.",
  action: "ai.approval.list",
  query: ApprovalsQuery,
  responses: {
    200: { description: "Approvals", schema: z.object({ approvals: z.array(ApprovalSchema), page: z.number(), limit: z.number(), total: z.number() }) },
    ...errorResponses(400, 401, 404, 429),
  },
});

export const approveOp = defineOperation({
  ...guardianOnly,
  method: "POST",
  path: "/api/ai/approvals/{id}/approve",
  operationId: "approveApproval",
  summary: "Release a held order, quote or price",
  action: "ai.approval.approve",
  params: IdParam,
  responses: { 200: { description: "Approved", schema: z.object({ approval: ApprovalSchema }) }, ...errorResponses(401, 404, 409, 429) },
});

export const rejectOp = defineOperation({
  ...guardianOnly,
  method: "POST",
  path: "/api/ai/approvals/{id}/reject",
  operationId: "rejectApproval",
  summary: "Reject a held order, quote or price",
  action: "ai.approval.reject",
  params: IdParam,
  responses: { 200: { description: "Rejected", schema: z.object({ approval: ApprovalSchema }) }, ...errorResponses(401, 404, 409, 429) },
});

export const aiMeOp = defineOperation({
  method: "GET",
  path: "/api/ai/me",
  operationId: "getAiStanding",
  summary: "An AI account's own standing: permissions, mandate, spend and approvals",
  description:
    "For AI accounts only (a human is 403 `forbidden`); no permission needed. Answers who the agent is, its guardian, its full permission map, its mandate (contract 9.2: `mandateCurrency`, `orderApprovalThreshold`, `monthlyBudget`, `maxDiscountPercent`), what it has spent against it in the mandate currency (the calendar month in UTC with what the budget leaves, and the last 24 hours per store with what the threshold leaves), and its approvals (how many wait, the 20 newest with their status). Spend is summed exactly as the mandate rule sums it: held, placed, confirmed and fulfilled orders (and task rewards for the month), converted at the reference rates of GET /api/fx-rates; an order is held when it alone exceeds the threshold, when it would take a store's 24-hour total past it, or the month past the budget. Read it before ordering, quoting or changing prices.",
  tags: ["AI accounts"],
  access: "user",
  permission: "none",
  action: "ai.me",
  responses: { 200: { description: "The agent's standing", schema: AiStandingSchema }, ...errorResponses(401, 403, 429) },
});
