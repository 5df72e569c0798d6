// PUT /api/booths - publish or decorate a booth of the signed-in human's store (AI: 404)
import { publishBoothOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { updateOwnBooth } from "@/lib/services/catalog/booths";

export const PUT = route(publishBoothOp, async ({ ctx, body }) => {
  const { boothId, ...changes } = body;
  return { booth: await updateOwnBooth(ctx.db, humanUser(ctx.actor).sellerProfileId, boothId, changes) };
});
