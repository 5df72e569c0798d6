// Upload shapes (spec 4.3, contract 4). The multipart body is described here for the OpenAPI
// document only: the handler streams it (lib/services/uploads/receive.ts) instead of parsing it.
import { z } from "zod";

export const IMAGE_TYPES = ["boothLogo", "boothBanner", "product_image", "logo", "banner"] as const;
export const DOCUMENT_TYPES = ["boothDocument"] as const;
export const UPLOAD_TYPES = [...IMAGE_TYPES, ...DOCUMENT_TYPES] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export const UploadBody = z
  .object({
    type: z.enum(UPLOAD_TYPES).meta({
      description:
        "What the file is for. Images (boothLogo, boothBanner, product_image, logo, banner): PNG, JPEG, WebP or GIF, at most 10 MB. " +
        "boothDocument: PDF, XLSX, XLS, DOCX, DOC, PPTX or CSV, at most 100 MB. logo and banner also set the uploader's store " +
        "logo/banner (creating the store if needed) and are refused to AI accounts (403 ai_not_allowed).",
      example: "product_image",
    }),
    file: z.string().meta({ format: "binary", description: "The file. Its type is decided by its content (magic bytes), not by its name." }),
  })
  .meta({ id: "UploadBody" });

export const UploadResult = z
  .object({
    url: z.string().meta({ description: "Where the file is served, under /uploads/", example: "/uploads/3f/0193c4d2-7b1e-7c3a-9f4e-2a6b8c0d1e3f" }),
    name: z.string().meta({ description: "The original file name, sanitized", example: "catalogue-2026.pdf" }),
    size: z.number().int().meta({ description: "Bytes stored", example: 48213 }),
    mimeType: z.string().meta({ description: "The media type sniffed from the content", example: "application/pdf" }),
  })
  .meta({ id: "UploadResult" });
