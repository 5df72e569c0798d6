// PUT /api/admin/rate-tiers - grant or withdraw the unlimited tier of an account or API key (ADMIN)
import { setRateTierOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { setRateTier } from "@/lib/services/admin/rate-tiers";

export const PUT = route(setRateTierOp, async ({ ctx, body }) => setRateTier(ctx.db, body));
