// Categories, exhibitions and stores: the public read shapes (spec 4.9).
import { z } from "zod";
import { LinkUrl, PageQuery } from "./common";
import { LOCALES } from "@/lib/i18n/locales";

export const LocaleQuery = z.object({ locale: z.enum(LOCALES).default("en") });

export const CategoryListQuery = LocaleQuery.extend({
  parentId: z.string().max(100).optional().meta({ description: "Children of this category; `root` for top level" }),
});

export const CategorySchema = z
  .object({ id: z.string(), slug: z.string(), parentId: z.string().nullable(), name: z.string(), names: z.record(z.string(), z.string()) })
  .meta({ id: "Category" });

export type CategoryTreeNode = { id: string; slug: string; name: string; parentId: string | null; children: CategoryTreeNode[] };
export const CategoryNodeSchema: z.ZodType<CategoryTreeNode> = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    parentId: z.string().nullable(),
    get children() {
      return z.array(CategoryNodeSchema);
    },
  })
  .meta({ id: "CategoryNode" });

export const ExhibitionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    venue: z.string(),
    bannerUrl: z.string().nullable(),
    startsAt: z.string(),
    endsAt: z.string(),
    status: z.enum(["upcoming", "ongoing", "past"]),
    boothCount: z.number().optional(),
  })
  .meta({ id: "Exhibition" });

export const ExhibitionListQuery = z.object({
  status: z.enum(["current", "upcoming", "ongoing", "past", "all"]).default("current").meta({ description: "`current` = upcoming and ongoing" }),
  ...PageQuery.shape,
});

export const CreateExhibitionBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    slug: z
      .string()
      .trim()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "lowercase-words-with-dashes")
      .max(100)
      .optional(),
    description: z.string().max(10_000).optional(),
    venue: z.string().max(200).optional(),
    bannerUrl: LinkUrl.or(z.literal("")).nullable().optional(),
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
  })
  .refine((v) => Date.parse(v.endsAt) > Date.parse(v.startsAt), { path: ["endsAt"], message: "Must be after startsAt" })
  .meta({ id: "CreateExhibition" });

/** The fields a store shows publicly; the settings answer extends them. */
export const StoreBase = z.object({
  id: z.string(),
  companyName: z.string(),
  description: z.string().nullable(),
  country: z.string().nullable(),
  website: z.string().nullable(),
  logoUrl: z.string().nullable(),
  bannerUrl: z.string().nullable(),
});

export const StoreSchema = StoreBase.extend({ productCount: z.number(), boothCount: z.number(), createdAt: z.string() }).meta({ id: "Store" });

export const SellerListQuery = z.object({
  q: z.string().max(200).optional(),
  country: z.string().max(100).optional(),
  ...PageQuery.shape,
});
