import { z } from "zod";
import { SellerListQuery, StoreSchema } from "@/lib/schemas/catalog";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import {
  AnalyticsQuery,
  BrochureSchema,
  CreateBrochureBody,
  OpenStoreBody,
  ProfileSchema,
  SellerSettingsBody,
  SeriesSchema,
  StoreSettingsSchema,
  UpdateProfileBody,
} from "@/lib/schemas/seller";
import { defineOperation } from "../operation";
import { BoothSchema } from "@/lib/schemas/booths";

const store = { access: "user", tags: ["Store"] } as const;

export const createBrochureOp = defineOperation({
  ...store,
  method: "POST",
  path: "/api/seller/brochures",
  operationId: "createBrochure",
  summary: "Publish a brochure (an uploaded document) for buyers to download",
  permission: "brochure.upload",
  body: CreateBrochureBody,
  responses: { 201: { description: "Created", schema: z.object({ brochure: BrochureSchema }) }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const listBrochuresOp = defineOperation({
  ...store,
  method: "GET",
  path: "/api/seller/brochures",
  operationId: "listBrochures",
  summary: "Your store's brochures with download counts",
  permission: "none",
  action: "brochure.list",
  responses: { 200: { description: "Brochures", schema: z.object({ brochures: z.array(BrochureSchema) }) }, ...errorResponses(401, 409, 429) },
});

export const downloadBrochureOp = defineOperation({
  method: "GET",
  path: "/api/brochures/{id}/download",
  operationId: "downloadBrochure",
  summary: "Download a brochure (counted; answers with a redirect to the file)",
  tags: ["Store"],
  access: "public",
  permission: "product.browse",
  params: IdParam,
  responses: { 302: { description: "Redirect to the file" }, ...errorResponses(404, 429) },
});

const series = (name: "views" | "inquiries" | "downloads", summary: string, extra?: z.ZodRawShape) =>
  defineOperation({
    ...store,
    method: "GET",
    path: `/api/analytics/${name}`,
    operationId: `analytics${name[0]!.toUpperCase()}${name.slice(1)}`,
    summary,
    permission: "none",
    action: `analytics.${name}`,
    query: AnalyticsQuery,
    responses: { 200: { description: "Per-day counts", schema: extra ? SeriesSchema.extend(extra) : SeriesSchema }, ...errorResponses(400, 401, 409, 429) },
  });

export const analyticsViewsOp = series("views", "Product detail views per day");
export const analyticsInquiriesOp = series("inquiries", "Inquiries per day and by status", { byStatus: z.record(z.string(), z.number()) });
export const analyticsDownloadsOp = series("downloads", "Brochure downloads per day");

export const dashboardOp = defineOperation({
  ...store,
  method: "GET",
  path: "/api/seller/dashboard",
  operationId: "sellerDashboard",
  summary: "Totals for the seller dashboard",
  permission: "none",
  action: "dashboard.read",
  responses: {
    200: {
      description: "Totals",
      schema: z.object({
        products: z.number(),
        booths: z.number(),
        publishedBooths: z.number(),
        newInquiries: z.number(),
        ordersByStatus: z.record(z.string(), z.number()),
        viewsLast30Days: z.number(),
        downloadsLast30Days: z.number(),
      }),
    },
    ...errorResponses(401, 409, 429),
  },
});

export const openStoreOp = defineOperation({
  method: "POST",
  path: "/api/seller/profile",
  operationId: "openStore",
  summary: "Open your store (create your seller profile)",
  description:
    "For a signed-in person without a store (a buyer who starts selling). `logoUrl` is an upload of type `logo`, or upload it afterwards. 409 `conflict` when the account already has a store.",
  tags: ["Store"],
  access: "human",
  permission: "none",
  action: "store.open",
  body: OpenStoreBody,
  responses: { 201: { description: "Created", schema: z.object({ settings: StoreSettingsSchema }) }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const getSettingsOp = defineOperation({
  ...store,
  method: "GET",
  path: "/api/seller/settings",
  operationId: "getSellerSettings",
  summary: "Your store's settings",
  permission: "none",
  action: "store.settings.read",
  responses: { 200: { description: "Settings", schema: z.object({ settings: StoreSettingsSchema }) }, ...errorResponses(401, 409, 429) },
});

export const updateSettingsOp = defineOperation({
  ...store,
  method: "PUT",
  path: "/api/seller/settings",
  operationId: "updateSellerSettings",
  summary: "Update your store's settings (AI accounts need store.profile.edit)",
  permission: "store.profile.edit",
  body: SellerSettingsBody,
  responses: { 200: { description: "Updated", schema: z.object({ settings: StoreSettingsSchema }) }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const getProfileOp = defineOperation({
  method: "GET",
  path: "/api/user/profile",
  operationId: "getProfile",
  summary: "Your profile",
  tags: ["Accounts"],
  access: "user",
  permission: "none",
  action: "profile.read",
  responses: { 200: { description: "Profile", schema: z.object({ profile: ProfileSchema }) }, ...errorResponses(401, 429) },
});

export const updateProfileOp = defineOperation({
  method: "PUT",
  path: "/api/user/profile",
  operationId: "updateProfile",
  summary: "Update your language and country",
  tags: ["Accounts"],
  access: "user",
  permission: "none",
  action: "profile.update",
  body: UpdateProfileBody,
  responses: { 200: { description: "Profile", schema: z.object({ profile: ProfileSchema }) }, ...errorResponses(400, 401, 429) },
});

export const listSellersOp = defineOperation({
  method: "GET",
  path: "/api/sellers",
  operationId: "listSellers",
  summary: "Sellers and their stores",
  tags: ["Stores"],
  access: "public",
  permission: "product.browse",
  transactional: false,
  query: SellerListQuery,
  responses: {
    200: { description: "Sellers", schema: z.object({ sellers: z.array(StoreSchema), page: z.number(), limit: z.number(), total: z.number() }) },
    ...errorResponses(400, 429),
  },
});

export const getSellerOp = defineOperation({
  method: "GET",
  path: "/api/sellers/{id}",
  operationId: "getSeller",
  summary: "A seller's profile (store) with its published booths",
  tags: ["Stores"],
  access: "public",
  permission: "product.browse",
  params: IdParam,
  responses: {
    200: { description: "Seller", schema: z.object({ seller: StoreSchema.extend({ booths: z.array(BoothSchema) }) }) },
    ...errorResponses(404, 429),
  },
});
