import { z } from "zod";
import { BoothSchema } from "@/lib/schemas/booths";
import {
  CategoryListQuery,
  CategoryNodeSchema,
  CategorySchema,
  CreateExhibitionBody,
  ExhibitionListQuery,
  ExhibitionSchema,
  LocaleQuery,
  SellerListQuery,
  StoreSchema,
} from "@/lib/schemas/catalog";
import { errorResponses, IdParam } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

const pub = { access: "public", permission: "product.browse", transactional: false } as const;

export const listCategoriesOp = defineOperation({
  ...pub,
  method: "GET",
  path: "/api/categories",
  operationId: "listCategories",
  summary: "Product categories with names in the requested locale (public)",
  tags: ["Categories"],
  query: CategoryListQuery,
  responses: { 200: { description: "Categories", schema: z.object({ categories: z.array(CategorySchema) }) }, ...errorResponses(400, 429) },
});

export const categoryTreeOp = defineOperation({
  ...pub,
  method: "GET",
  path: "/api/categories/tree",
  operationId: "categoryTree",
  summary: "The hierarchical category tree (public)",
  tags: ["Categories"],
  query: LocaleQuery,
  responses: { 200: { description: "Tree", schema: z.object({ categories: z.array(CategoryNodeSchema) }) }, ...errorResponses(400, 429) },
});

const BoothWithCompany = BoothSchema.extend({ companyName: z.string() });

export const listExhibitionsOp = defineOperation({
  ...pub,
  method: "GET",
  path: "/api/exhibitions",
  operationId: "listExhibitions",
  summary: "Upcoming and ongoing exhibitions (public; `status` for others)",
  tags: ["Exhibitions"],
  query: ExhibitionListQuery,
  responses: {
    200: { description: "Exhibitions", schema: z.object({ exhibitions: z.array(ExhibitionSchema), page: z.number(), limit: z.number(), total: z.number() }) },
    ...errorResponses(400, 429),
  },
});

export const getExhibitionOp = defineOperation({
  ...pub,
  method: "GET",
  path: "/api/exhibitions/{id}",
  operationId: "getExhibition",
  summary: "An exhibition (by id or slug) with its published booths (public)",
  tags: ["Exhibitions"],
  params: IdParam,
  responses: {
    200: { description: "Exhibition", schema: z.object({ exhibition: ExhibitionSchema.extend({ booths: z.array(BoothWithCompany) }) }) },
    ...errorResponses(404, 429),
  },
});

export const createExhibitionOp = defineOperation({
  method: "POST",
  path: "/api/exhibitions",
  operationId: "createExhibition",
  summary: "Create an exhibition (ADMIN)",
  tags: ["Exhibitions"],
  access: "admin",
  permission: "none",
  action: "exhibition.create",
  body: CreateExhibitionBody,
  responses: { 201: { description: "Created", schema: z.object({ exhibition: ExhibitionSchema }) }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const getStoreOp = defineOperation({
  ...pub,
  method: "GET",
  path: "/api/stores/{id}",
  operationId: "getStore",
  summary: "A supplier's store with its published booths (public)",
  tags: ["Stores"],
  params: IdParam,
  responses: { 200: { description: "Store", schema: z.object({ store: StoreSchema.extend({ booths: z.array(BoothSchema) }) }) }, ...errorResponses(404, 429) },
});

export const publicSellersOp = defineOperation({
  ...pub,
  method: "GET",
  path: "/api/sellers/public",
  operationId: "listPublicSellers",
  summary: "Public suppliers (public)",
  tags: ["Stores"],
  query: SellerListQuery,
  responses: {
    200: { description: "Suppliers", schema: z.object({ sellers: z.array(StoreSchema), page: z.number(), limit: z.number(), total: z.number() }) },
    ...errorResponses(400, 429),
  },
});
