import { z } from "zod";
import { AiAccountSchema, CreateAiAccountBody } from "@/lib/schemas/ai";
import { errorResponses } from "@/lib/schemas/common";
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
  responses: { 201: { description: "Created", schema: z.object({ account: AiAccountSchema }) }, ...errorResponses(400, 401, 404, 409, 429) },
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
  responses: { 200: { description: "AI accounts", schema: z.object({ accounts: z.array(AiAccountSchema) }) }, ...errorResponses(401, 404, 429) },
});
