// POST /api/upload - stream an image or document to storage (multipart: type, file)
import { uploadOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { signedInActor } from "@/lib/auth/actor";
import { createUpload } from "@/lib/services/uploads/create";

export const POST = route(uploadOp, async ({ req, ctx }) => createUpload(ctx.db, signedInActor(ctx.actor), req));
