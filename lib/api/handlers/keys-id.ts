// DELETE /api/keys/:id - revoke one of your API keys
import { revokeApiKeyOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { revokeApiKey } from "@/lib/services/keys/keys";

export const DELETE = route(revokeApiKeyOp, async ({ ctx, params }) => revokeApiKey(ctx, params.id));
