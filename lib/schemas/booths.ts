// Booth shapes (spec 2.8, contract 4).
import { z } from "zod";
import { LinkUrl, PageQuery } from "./common";

/** Empty clears the field. */
const Url = LinkUrl.or(z.literal(""));

export const BoothDecoration = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  exhibitionName: z.string().trim().max(200).nullable().optional(),
  location: z.string().trim().max(200).nullable().optional(),
  logoUrl: Url.nullable().optional(),
  bannerUrl: Url.nullable().optional(),
  description: z.string().trim().max(10_000).nullable().optional(),
  theme: z.string().trim().max(50).nullable().optional(),
  colorScheme: z.string().trim().max(50).nullable().optional(),
});

export const PublishBoothBody = BoothDecoration.extend({
  boothId: z.string().min(1).max(100),
  isPublished: z.boolean().optional(),
}).meta({ id: "PublishBooth" });

export const BoothSchema = z
  .object({
    id: z.string(),
    sellerId: z.string(),
    exhibitionId: z.string().nullable(),
    name: z.string(),
    exhibitionName: z.string().nullable(),
    location: z.string().nullable(),
    logoUrl: z.string().nullable(),
    bannerUrl: z.string().nullable(),
    description: z.string().nullable(),
    keywords: z.array(z.string()).optional().meta({ description: "Owner only" }),
    documents: z.array(z.object({ url: z.string(), name: z.string(), type: z.string(), size: z.number() })),
    theme: z.string().nullable(),
    colorScheme: z.string().nullable(),
    isPublished: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Booth" });

const Keywords50 = z
  .array(z.string().trim().min(1).max(100))
  .max(50, "At most 50 keywords")
  .meta({ description: "Search only; shown to the booth's owner, never to buyers" });
const BoothDocumentInput = z.object({
  url: LinkUrl,
  name: z.string().trim().min(1).max(255),
  type: z.string().trim().min(1).max(255).meta({ description: "Media type" }),
  size: z.number().int().min(0),
});

export const CreateBoothBody = BoothDecoration.extend({
  name: z.string().trim().min(1).max(200),
  keywords: Keywords50.optional(),
  documents: z.array(BoothDocumentInput).max(50).optional(),
}).meta({ id: "CreateBooth" });

export const DecorateBoothBody = BoothDecoration.extend({
  keywords: Keywords50.optional(),
  documents: z.array(BoothDocumentInput).max(50).optional(),
  isPublished: z.boolean().optional().meta({ description: "Refused here: only the human owner publishes, with PUT /api/booths" }),
})
  .refine((v) => v.isPublished === undefined, { path: ["isPublished"], message: "Publishing is for the human owner: PUT /api/booths" })
  .meta({ id: "DecorateBooth" });

export const PublicBoothsQuery = z.object({
  exhibitionId: z.string().max(100).optional(),
  sellerId: z.string().max(100).optional(),
  ...PageQuery.shape,
});
