// GET /api/seller/settings - your store's settings
// PUT /api/seller/settings - update them (AI: store.profile.edit)
import { getSettingsOp, updateSettingsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getSettings, updateSettings } from "@/lib/services/seller/settings";

export const GET = route(getSettingsOp, async ({ ctx }) => ({ settings: await getSettings(ctx) }));

export const PUT = route(updateSettingsOp, async ({ ctx, body }) => ({ settings: await updateSettings(ctx, body) }));
