// POST /api/buyer/requirements - post a purchase requirement
// GET /api/buyer/requirements - your requirements
import { createRequirementOp, listOwnRequirementsOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createRequirement, listOwnRequirements } from "@/lib/services/trade/requirements";

export const POST = route(createRequirementOp, async ({ ctx, body }) => json({ requirement: await createRequirement(ctx, body) }, 201));

export const GET = route(listOwnRequirementsOp, async ({ ctx, query }) => listOwnRequirements(ctx, query));
