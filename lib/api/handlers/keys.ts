// POST /api/keys - create an API key (the secret is shown once)
// GET /api/keys - your API keys, without secrets
import { createApiKeyOp, listApiKeysOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createApiKey, listApiKeys } from "@/lib/services/keys/keys";

export const POST = route(createApiKeyOp, async ({ ctx, body }) => json(await createApiKey(ctx, body.name), 201));

export const GET = route(listApiKeysOp, async ({ ctx, query }) => listApiKeys(ctx, query));
