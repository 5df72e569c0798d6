// The signed-in user's own profile.
import { eq } from "drizzle-orm";
import { users } from "@/lib/db/schema";
import { signedIn } from "@/lib/services/trade/common";
import type { Ctx } from "@/lib/gate/context";

export async function getProfile(ctx: Ctx) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const [u] = await db.select().from(users).where(eq(users.id, me.user.id));
  return {
    id: u!.id,
    username: u!.username,
    email: u!.email,
    role: u!.role,
    isAI: me.type === "ai",
    locale: u!.locale,
    country: u!.country,
    sellerProfileId: me.type === "ai" ? me.guardian.sellerProfileId : me.user.sellerProfileId,
    guardian: me.type === "ai" ? { id: me.guardian.id, username: me.guardian.username } : null,
    createdAt: u!.createdAt.toISOString(),
  };
}

export async function updateProfile(ctx: Ctx, changes: { locale?: string | null; country?: string | null }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, me.user.id));
  return getProfile(ctx);
}
