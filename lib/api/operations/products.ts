import { z } from "zod";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import { CreateProductBody, PatchProductBody, ProductListQuery, ProductPage, ProductSchema, SearchPage, UpdateProductBody } from "@/lib/schemas/products";
import { defineOperation } from "../operation";

const tags = ["Products"];
const ProductDetail = ProductSchema.extend({
  booth: z.object({ id: z.string(), name: z.string(), isPublished: z.boolean() }).nullable(),
  sellerUserId: z.string().nullable().meta({ description: "The store owner's user id, to start a chat (`to`)" }),
});
const ProductUpdated = ProductSchema.extend({
  pendingApproval: z.object({ id: z.string(), rule: z.string() }).optional().meta({
    description:
      "AI sellers: a price cut (or price tiers) deeper than allowed waits for the guardian; the price, currency and tiers stay as they were until then",
  }),
});

export const listProductsOp = defineOperation({
  method: "GET",
  path: "/api/products",
  operationId: "listProducts",
  summary: "List and search products (public)",
  description: "`keyword` matches title, description and keywords in any language, case- and accent-insensitively, substrings for CJK.",
  tags,
  access: "public",
  permission: "product.browse",
  query: ProductListQuery,
  transactional: false,
  responses: { 200: { description: "Products", schema: ProductPage }, ...errorResponses(400, 429) },
});

export const searchProductsOp = defineOperation({
  method: "GET",
  path: "/api/products/search",
  operationId: "searchProducts",
  summary: "Advanced product search with category facets (public)",
  tags,
  access: "public",
  permission: "product.browse",
  query: ProductListQuery,
  transactional: false,
  responses: { 200: { description: "Products and facets", schema: SearchPage }, ...errorResponses(400, 429) },
});

export const getProductOp = defineOperation({
  method: "GET",
  path: "/api/products/{id}",
  operationId: "getProduct",
  summary: "Product details (public; counts a view)",
  tags,
  access: "public",
  permission: "product.browse",
  params: IdParam,
  query: z.object({ locale: ProductListQuery.shape.locale }),
  responses: { 200: { description: "Product", schema: z.object({ product: ProductDetail }) }, ...errorResponses(404, 429) },
});

export const createProductOp = defineOperation({
  method: "POST",
  path: "/api/products",
  operationId: "createProduct",
  summary: "Create a product in your store (an AI_SELLER creates in its guardian's store)",
  description:
    "AI sellers must send `keywords` (`keywords_required`); the answer's `keywordCoverage` shows which languages are still missing. `priceTiers` deeper below `price` than an AI seller's mandate allows are held for its guardian (the product is created without them; `pendingApproval`).",
  tags,
  access: "user",
  permission: "product.create",
  body: CreateProductBody,
  responses: { 201: { description: "Created", schema: z.object({ product: ProductUpdated }) }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const updateProductOp = defineOperation({
  method: "PUT",
  path: "/api/products/{id}",
  operationId: "updateProduct",
  summary: "Update any product fields",
  tags,
  access: "user",
  permission: "product.update",
  params: IdParam,
  body: UpdateProductBody,
  responses: { 200: { description: "Updated", schema: z.object({ product: ProductUpdated }) }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const patchProductOp = defineOperation({
  method: "PATCH",
  path: "/api/products/{id}",
  operationId: "patchProduct",
  summary: "Assign to a booth (max 100 per booth), set OEM, minimum order or main image",
  tags,
  access: "user",
  permission: "product.update",
  params: IdParam,
  body: PatchProductBody,
  responses: { 200: { description: "Updated", schema: z.object({ product: ProductUpdated }) }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const deleteProductOp = defineOperation({
  method: "DELETE",
  path: "/api/products/{id}",
  operationId: "deleteProduct",
  summary: "Delete a product of your store",
  tags,
  access: "user",
  permission: "product.delete",
  params: IdParam,
  responses: { 200: { description: "Deleted", schema: z.object({ id: z.string(), deleted: z.literal(true) }) }, ...errorResponses(401, 403, 404, 429) },
});
