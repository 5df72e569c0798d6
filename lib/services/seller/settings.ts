// Store settings (the seller profile); AI accounts need store.profile.edit (spec 5.3).
import { eq } from "drizzle-orm";
import { requireStoreId, type Actor } from "@/lib/auth/actor";
import { sellerProfiles } from "@/lib/db/schema";
import { storeBase } from "@/lib/services/catalog/stores";
import { signedIn } from "@/lib/services/trade/common";
import type { Ctx } from "@/lib/gate/context";

/** The owner's view of the store: the public fields and the contact details. */
export const settingsView = (s: typeof sellerProfiles.$inferSelect) => ({
  ...storeBase(s),
  contactEmail: s.contactEmail,
  phone: s.phone,
  isPublic: s.isPublic,
  updatedAt: s.updatedAt.toISOString(),
});

const store = (actor: Actor) => requireStoreId(signedIn(actor));

export async function getSettings(ctx: Ctx) {
  const { db, actor } = ctx;
  const [s] = await db
    .select()
    .from(sellerProfiles)
    .where(eq(sellerProfiles.id, store(actor)));
  return settingsView(s!);
}

export async function updateSettings(ctx: Ctx, changes: Partial<Omit<typeof sellerProfiles.$inferInsert, "id" | "userId">>) {
  const { db, actor } = ctx;
  const [s] = await db
    .update(sellerProfiles)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(sellerProfiles.id, store(actor)))
    .returning();
  return settingsView(s!);
}
