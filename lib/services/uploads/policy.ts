// What each upload `type` accepts (spec 4.3, contract 4). Sizes are binary megabytes, so "100 MB"
// is never stricter than a client counting either way.
import { env } from "@/lib/env";
import { DOCUMENT_TYPES, UPLOAD_TYPES, type UploadType } from "@/lib/schemas/uploads";

export { UPLOAD_TYPES, type UploadType };
export const MiB = 1024 * 1024;

export type UploadKind = "image" | "document";

export const LIMITS: Record<UploadKind, number> = { image: 10 * MiB, document: 100 * MiB };
export const MAX_UPLOAD = Math.max(...Object.values(LIMITS));
/** Room for the multipart framing and the small `type` field around the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * An upload that sends nothing for this long is abandoned (408, the partial file removed). The
 * whole request is also bounded by the server's request timeout (HTTP_REQUEST_TIMEOUT_MS in
 * server.ts), which stops a client that trickles a byte now and then.
 */
export const uploadIdleTimeoutMs = (): number => env().UPLOAD_IDLE_TIMEOUT_MS;

/** Types that change the uploader's own store; spec 4.3: AI agents must not use them. */
export const HUMAN_ONLY_TYPES: ReadonlySet<UploadType> = new Set(["logo", "banner"]);

export function isUploadType(v: string): v is UploadType {
  return (UPLOAD_TYPES as readonly string[]).includes(v);
}

export function kindOf(type: UploadType): UploadKind {
  return (DOCUMENT_TYPES as readonly string[]).includes(type) ? "document" : "image";
}

export const ACCEPTED: Record<UploadKind, string> = {
  image: "PNG, JPEG, WebP or GIF",
  document: "PDF, XLSX, XLS, DOCX, DOC, PPTX or CSV",
};
