import { errorResponses } from "@/lib/schemas/common";
import { UploadBody, UploadResult } from "@/lib/schemas/uploads";
import { defineOperation } from "../operation";

export const uploadOp = defineOperation({
  method: "POST",
  path: "/api/upload",
  operationId: "upload",
  summary: "Upload an image or a document",
  description:
    "multipart/form-data with the fields `type` and `file` (in either order), streamed to storage. The content decides the type: " +
    "a wrong format is 415 `unsupported_media_type`, a file over the limit 413 `payload_too_large`. The file is then served at `url` " +
    "with its sniffed type and `X-Content-Type-Options: nosniff`; documents as attachments. With an Idempotency-Key a retry sending the " +
    "same body replays the first answer (the body is hashed while it streams); a refusal before the whole body was read is not kept.",
  tags: ["Uploads"],
  access: "user",
  permission: "none",
  action: "upload.create",
  body: UploadBody,
  bodyType: "multipart",
  // A 100 MB upload must not hold a database transaction open while it streams.
  transactional: false,
  responses: { 201: { description: "Stored", schema: UploadResult }, ...errorResponses(400, 401, 403, 413, 415, 429, 503) },
});
