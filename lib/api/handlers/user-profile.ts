// GET /api/user/profile - your profile
// PUT /api/user/profile - update language and country
import { getProfileOp, updateProfileOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getProfile, updateProfile } from "@/lib/services/accounts/profile";

export const GET = route(getProfileOp, async ({ ctx }) => ({ profile: await getProfile(ctx) }));

export const PUT = route(updateProfileOp, async ({ ctx, body }) => ({ profile: await updateProfile(ctx, body) }));
