import { z } from "zod";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import { ApiKeyListQuery, ApiKeyPage, ApiKeySchema, CreateApiKeyBody, CreatedApiKey } from "@/lib/schemas/keys";
import { defineOperation } from "../operation";

export const createApiKeyOp = defineOperation({
  method: "POST",
  path: "/api/keys",
  operationId: "createApiKey",
  summary: "Create an API key for your account",
  description:
    "The `secret` is shown once and stored only as a SHA-256 hash. Send it as `Authorization: Bearer etk_...` or `X-API-Key: etk_...` " +
    "on any API route and on the `/mcp` tool server; it acts as your account (permissions, audit, rate tier). " +
    "Needs a signed-in session: a key cannot create keys (403 `forbidden`). At most 25 active keys (409).",
  tags: ["API keys"],
  access: "user",
  permission: "none",
  action: "apikey.create",
  body: CreateApiKeyBody,
  responses: { 201: { description: "Created", schema: CreatedApiKey }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const listApiKeysOp = defineOperation({
  method: "GET",
  path: "/api/keys",
  operationId: "listApiKeys",
  summary: "Your API keys (never their secrets)",
  tags: ["API keys"],
  access: "user",
  permission: "none",
  action: "apikey.list",
  query: ApiKeyListQuery,
  responses: { 200: { description: "Keys, newest first", schema: ApiKeyPage }, ...errorResponses(400, 401, 429) },
});

export const revokeApiKeyOp = defineOperation({
  method: "DELETE",
  path: "/api/keys/{id}",
  operationId: "revokeApiKey",
  summary: "Revoke one of your API keys",
  description: "Takes effect on the key's next request (401). Revoking again answers the revoked key; another account's key is 404.",
  tags: ["API keys"],
  access: "user",
  permission: "none",
  action: "apikey.revoke",
  params: IdParam,
  responses: { 200: { description: "Revoked", schema: z.object({ key: ApiKeySchema }) }, ...errorResponses(401, 404, 429) },
});
