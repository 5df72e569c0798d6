// POST /api/upload's verb: receive the file, then record it (and, for `logo`/`banner`, put it on
// the uploader's store) in one transaction. A failed write removes the stored file again.
import { eq } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import { signedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { sellerProfiles, uploads } from "@/lib/db/schema";
import { storage } from "@/lib/storage";
import type { Ctx } from "@/lib/gate/context";
import { HUMAN_ONLY_TYPES } from "./policy";
import { receiveUpload } from "./receive";

export type UploadResultView = { url: string; name: string; size: number; mimeType: string };

export const uploadUrl = (key: string) => `/uploads/${key}`;

export async function createUpload(ctx: Ctx, req: Request): Promise<UploadResultView> {
  const db = ctx.db;
  const actor = signedInActor(ctx.actor);
  const received = await receiveUpload(req, (type) => {
    if (actor.type === "ai" && HUMAN_ONLY_TYPES.has(type)) {
      throw new ApiError("ai_not_allowed", `AI accounts may not upload a store ${type}; use boothLogo/boothBanner for a booth`);
    }
  });
  const url = uploadUrl(received.key);
  try {
    await db.transaction(async (tx) => {
      await tx.insert(uploads).values({
        userId: actor.user.id,
        type: received.type,
        url,
        storageKey: received.key,
        name: received.name,
        size: received.size,
        mimeType: received.mime,
      });
      if (actor.type === "human" && (received.type === "logo" || received.type === "banner")) {
        await setStoreImage(tx, actor.user.id, actor.user.username, received.type, url);
      }
    });
  } catch (err) {
    await storage()
      .delete(received.key)
      .catch(() => {});
    throw err;
  }
  return { url, name: received.name, size: received.size, mimeType: received.mime };
}

/** Spec 4.3: `logo`/`banner` create the uploader's seller profile as a side effect. */
async function setStoreImage(db: Db, userId: string, username: string, type: "logo" | "banner", url: string) {
  // ON CONFLICT: two first uploads at once both find no profile; only one may create it.
  await db.insert(sellerProfiles).values({ userId, companyName: username }).onConflictDoNothing({ target: sellerProfiles.userId });
  await db
    .update(sellerProfiles)
    .set(type === "logo" ? { logoUrl: url, updatedAt: new Date() } : { bannerUrl: url, updatedAt: new Date() })
    .where(eq(sellerProfiles.userId, userId));
}
