import { errorResponses } from "@/lib/schemas/common";
import { RateTierResult, SetRateTierBody } from "@/lib/schemas/keys";
import { defineOperation } from "../operation";

export const setRateTierOp = defineOperation({
  method: "PUT",
  path: "/api/admin/rate-tiers",
  operationId: "setRateTier",
  summary: "Grant or withdraw the unlimited rate tier (ADMIN)",
  description:
    "Give exactly one of `userId` (the account's tier: all its sessions and keys) or `apiKeyId` (that key only). " +
    "Standard tiers: 100 requests per hour per IP for anonymous callers, 1000 per hour per account.",
  tags: ["Admin"],
  access: "admin",
  permission: "none",
  action: "admin.rate_tier",
  body: SetRateTierBody,
  responses: { 200: { description: "Tier set", schema: RateTierResult }, ...errorResponses(400, 401, 403, 404, 429) },
});
