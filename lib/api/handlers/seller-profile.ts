// POST /api/seller/profile - open your store
import { openStoreOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { openStore } from "@/lib/services/seller/profile";

export const POST = route(openStoreOp, async ({ ctx, body }) => json({ settings: await openStore(ctx, body) }, 201));
