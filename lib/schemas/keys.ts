// API keys and rate tiers (contracts 6 and 7), shared by the handlers, OpenAPI and tests.
import { z } from "zod";
import { PageQuery, Timestamp } from "./common";

export const RateTier = z.enum(["standard", "unlimited"]);

export const CreateApiKeyBody = z
  .object({ name: z.string().trim().min(1, "Cannot be empty").max(100).meta({ description: "A label to tell keys apart", example: "sourcing agent" }) })
  .meta({ id: "CreateApiKey" });

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: "The first characters of the secret", example: "etk_3q9ZsV1x" }),
    rateTier: RateTier,
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable().meta({ description: "Updated at most once a minute" }),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

export const CreatedApiKey = z
  .object({
    key: ApiKeySchema,
    secret: z.string().meta({ description: "Shown only in this answer; send it as `Authorization: Bearer <secret>` or `X-API-Key`" }),
  })
  .meta({ id: "CreatedApiKey" });

export const ApiKeyListQuery = PageQuery;
export const ApiKeyPage = z.object({ keys: z.array(ApiKeySchema), page: z.number(), limit: z.number(), total: z.number() }).meta({ id: "ApiKeyPage" });

export const SetRateTierBody = z
  .object({
    userId: z.string().trim().min(1).max(100).optional().meta({ description: "An account (its tier applies to all its sessions and keys)" }),
    apiKeyId: z.string().trim().min(1).max(100).optional().meta({ description: "One API key" }),
    tier: RateTier,
  })
  .superRefine((v, ctx) => {
    if ((v.userId === undefined) === (v.apiKeyId === undefined)) {
      ctx.addIssue({ code: "custom", path: [v.userId === undefined ? "userId" : "apiKeyId"], message: "Give exactly one of userId and apiKeyId" });
    }
  })
  // The rule above, for readers of the OpenAPI document.
  .meta({ id: "SetRateTier", oneOf: [{ required: ["userId"] }, { required: ["apiKeyId"] }] });

export const RateTierResult = z.object({ userId: z.string().optional(), apiKeyId: z.string().optional(), tier: RateTier }).meta({ id: "RateTierResult" });
