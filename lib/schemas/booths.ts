// Booth shapes (spec 2.8, contract 4).
import { z } from "zod";

const Url = z.string().trim().max(2048);

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
