// POST /api/upload - stream an image or document to storage (multipart: type, file)
import { uploadOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { createUpload } from "@/lib/services/uploads/create";

export const POST = route(uploadOp, async ({ req, ctx }) => createUpload(ctx, req));
