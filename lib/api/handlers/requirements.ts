// GET /api/requirements - open purchase requirements for stores
import { browseRequirementsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { browseRequirements } from "@/lib/services/trade/requirements";

export const GET = route(browseRequirementsOp, async ({ ctx, query }) => browseRequirements(ctx, query));
