// Store-side shapes: brochures, analytics, dashboard, settings; and the user profile.
import { z } from "zod";
import { LOCALES } from "@/lib/i18n/locales";
import { StoreBase } from "./catalog";
import { LinkUrl } from "./common";

const Id = z.string().trim().min(1).max(100);

export const CreateBrochureBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    fileUrl: z
      .string()
      .trim()
      .max(2048)
      .regex(/^\/uploads\/[A-Za-z0-9/_.-]+$/, "An /uploads/... URL from POST /api/upload (type boothDocument)"),
    boothId: Id.optional(),
    productIds: z.array(Id).max(100).optional(),
  })
  .meta({ id: "CreateBrochure" });
export const BrochureSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    fileUrl: z.string(),
    downloadUrl: z.string(),
    boothId: z.string().nullable(),
    productIds: z.array(z.string()),
    downloadCount: z.number(),
    sentByAI: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: "Brochure" });

export const AnalyticsQuery = z
  .object({
    from: z.coerce.date().optional().meta({ description: "ISO 8601; default 30 days ago" }),
    to: z.coerce.date().optional().meta({ description: "ISO 8601; default now" }),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["to"], message: "Must not be before from" });
export const SeriesSchema = z.object({
  from: z.string(),
  to: z.string(),
  total: z.number(),
  days: z.array(z.object({ date: z.string(), count: z.number() })),
});

export const SellerSettingsBody = z
  .object({
    companyName: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(10_000).nullable().optional(),
    country: z.string().trim().max(100).nullable().optional(),
    website: LinkUrl.refine((v) => /^https?:\/\//i.test(v), "An http(s) URL")
      .nullable()
      .optional(),
    logoUrl: LinkUrl.or(z.literal("")).nullable().optional(),
    bannerUrl: LinkUrl.or(z.literal("")).nullable().optional(),
    contactEmail: z.string().trim().email().max(254).nullable().optional(),
    phone: z.string().trim().max(50).nullable().optional(),
    isPublic: z.boolean().optional(),
  })
  .meta({ id: "SellerSettings" });
export const OpenStoreBody = z
  .object({
    companyName: z.string().trim().min(1).max(200),
    country: z.string().trim().max(100).nullable().optional(),
    description: z.string().trim().max(10_000).nullable().optional(),
    logoUrl: z
      .string()
      .trim()
      .max(2048)
      .regex(/^\/uploads\/[A-Za-z0-9/_.-]+$/, "An /uploads/... URL from POST /api/upload")
      .nullable()
      .optional(),
  })
  .meta({ id: "OpenStore" });
export type OpenStoreInput = z.infer<typeof OpenStoreBody>;
export const StoreSettingsSchema = StoreBase.extend({
  contactEmail: z.string().nullable(),
  phone: z.string().nullable(),
  isPublic: z.boolean(),
  updatedAt: z.string(),
}).meta({ id: "StoreSettings" });

export const ProfileSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    role: z.string(),
    isAI: z.boolean(),
    locale: z.string().nullable(),
    country: z.string().nullable(),
    sellerProfileId: z.string().nullable(),
    guardian: z.object({ id: z.string(), username: z.string() }).nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "Profile" });
export const UpdateProfileBody = z
  .object({ locale: z.enum(LOCALES).nullable().optional(), country: z.string().trim().max(100).nullable().optional() })
  .meta({ id: "UpdateProfile" });
