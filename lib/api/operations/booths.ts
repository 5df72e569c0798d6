import { z } from "zod";
import { BoothSchema, CreateBoothBody, DecorateBoothBody, PublicBoothsQuery, PublishBoothBody } from "@/lib/schemas/booths";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import { ProductSchema } from "@/lib/schemas/products";
import { defineOperation } from "../operation";

export const publishBoothOp = defineOperation({
  method: "PUT",
  path: "/api/booths",
  operationId: "publishBooth",
  summary: "Publish or decorate a booth of your own store (the guardian or human seller only)",
  description: "Looks up the seller profile of the signed-in human. An AI account gets 404 here, so it can never publish a booth.",
  tags: ["Booths"],
  access: "human",
  permission: "none",
  action: "booth.publish",
  body: PublishBoothBody,
  responses: { 200: { description: "Updated booth", schema: z.object({ booth: BoothSchema }) }, ...errorResponses(400, 401, 404, 409, 429) },
});

const BoothDetail = BoothSchema.extend({
  seller: z.object({ id: z.string(), companyName: z.string(), country: z.string().nullable(), logoUrl: z.string().nullable() }).nullable(),
  exhibition: z.object({ id: z.string(), name: z.string(), slug: z.string() }).nullable(),
  products: z.array(ProductSchema),
});

export const createBoothOp = defineOperation({
  method: "POST",
  path: "/api/booths",
  operationId: "createBooth",
  summary: "Create a booth (unpublished) in your store; an AI_SELLER creates in its guardian's store",
  description: "A booth joins the exhibition whose name equals `exhibitionName` (case-insensitive). Keywords (max 50) serve search only.",
  tags: ["Booths"],
  access: "user",
  permission: "booth.edit",
  body: CreateBoothBody,
  responses: { 201: { description: "Created", schema: z.object({ booth: BoothSchema }) }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const getBoothOp = defineOperation({
  method: "GET",
  path: "/api/booths/{id}",
  operationId: "getBooth",
  summary: "A booth with its supplier and products (drafts only for their owner)",
  tags: ["Booths"],
  access: "public",
  permission: "product.browse",
  params: IdParam,
  responses: { 200: { description: "Booth", schema: z.object({ booth: BoothDetail }) }, ...errorResponses(404, 429) },
});

export const decorateBoothOp = defineOperation({
  method: "PUT",
  path: "/api/booths/{id}",
  operationId: "decorateBooth",
  summary: "Decorate a booth of your store (not the publish switch)",
  tags: ["Booths"],
  access: "user",
  permission: "booth.edit",
  params: IdParam,
  body: DecorateBoothBody,
  responses: { 200: { description: "Updated", schema: z.object({ booth: BoothSchema }) }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const publicBoothsOp = defineOperation({
  method: "GET",
  path: "/api/public/booths",
  operationId: "listPublicBooths",
  summary: "Published booths (public)",
  tags: ["Booths"],
  access: "public",
  permission: "product.browse",
  query: PublicBoothsQuery,
  transactional: false,
  responses: {
    200: {
      description: "Booths",
      schema: z.object({
        booths: z.array(BoothSchema.extend({ companyName: z.string(), productCount: z.number() })),
        page: z.number(),
        limit: z.number(),
        total: z.number(),
      }),
    },
    ...errorResponses(400, 429),
  },
});

export const listOwnBoothsOp = defineOperation({
  method: "GET",
  path: "/api/booths",
  operationId: "listOwnBooths",
  summary: "The booths of your store, drafts included (an AI_SELLER: its guardian's store)",
  tags: ["Booths"],
  access: "user",
  permission: "none",
  action: "booth.list",
  responses: {
    200: { description: "Booths", schema: z.object({ booths: z.array(BoothSchema.extend({ productCount: z.number() })) }) },
    ...errorResponses(401, 429),
  },
});
