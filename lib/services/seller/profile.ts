// Opening a store in one step (issue #17): a signed-in person without one gets a seller profile.
// Registration as SELLER creates it at sign-up; a buyer who decides to sell later comes here.
import { humanUser } from "@/lib/auth/actor";
import { isUniqueViolation } from "@/lib/db/errors";
import { sellerProfiles } from "@/lib/db/schema";
import { ApiError } from "@/lib/errors";
import type { Ctx } from "@/lib/gate/context";
import type { OpenStoreInput } from "@/lib/schemas/seller";
import { settingsView } from "./settings";

const storeExists = () => new ApiError("conflict", "You already have a store; change it with PUT /api/seller/settings");

export async function openStore(ctx: Ctx, input: OpenStoreInput) {
  const user = humanUser(ctx.actor);
  if (user.sellerProfileId) throw storeExists();
  try {
    const [s] = await ctx.db
      .insert(sellerProfiles)
      .values({
        userId: user.id,
        companyName: input.companyName,
        country: input.country ?? null,
        description: input.description ?? null,
        logoUrl: input.logoUrl ?? null,
        // The account's e-mail is where buyers' mail would go; the seller may change it in the settings.
        contactEmail: user.email,
      })
      .returning();
    return settingsView(s!);
  } catch (err) {
    // An upload of a logo (spec 4.3) or a second tab may have created it since the session was read.
    if (isUniqueViolation(err, "seller_profiles_user_key")) throw storeExists();
    throw err;
  }
}
