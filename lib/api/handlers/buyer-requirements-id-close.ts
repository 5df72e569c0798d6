// POST /api/buyer/requirements/:id/close - close one of your requirements
import { closeRequirementOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { closeRequirement } from "@/lib/services/trade/requirements";

export const POST = route(closeRequirementOp, async ({ ctx, params }) => ({ requirement: await closeRequirement(ctx, params.id) }));
