// GET /api/booths - the booths of your store, drafts included
// POST /api/booths - create a booth in your store (AI_SELLER: its guardian's)
// PUT /api/booths - publish or decorate a booth of the signed-in human's store (AI: 404)
import { createBoothOp, listOwnBoothsOp, publishBoothOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { createBooth, listOwnBooths, updateOwnBooth } from "@/lib/services/catalog/booths";

export const GET = route(listOwnBoothsOp, async ({ ctx }) => listOwnBooths(ctx));

export const POST = route(createBoothOp, async ({ ctx, body }) => json({ booth: await createBooth(ctx, body) }, 201));

export const PUT = route(publishBoothOp, async ({ ctx, body }) => {
  const { boothId, ...changes } = body;
  return { booth: await updateOwnBooth(ctx.db, humanUser(ctx.actor).sellerProfileId, boothId, changes) };
});
