// The signed-in user's own profile.
import { eq } from "drizzle-orm";
import type { Actor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { signedIn } from "@/lib/services/trade/common";

export async function getProfile(db: Db, actor: Actor) {
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

export async function updateProfile(db: Db, actor: Actor, changes: { locale?: string | null; country?: string | null }) {
  const me = signedIn(actor);
  await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, me.user.id));
  return getProfile(db, actor);
}
