// Product shapes (spec 2.4, contract 4), shared by the handlers, OpenAPI, MCP tools and pages.
import { z } from "zod";
import { LinkUrl, MONEY_MAX, PageQuery } from "./common";
import { LOCALES } from "@/lib/i18n/locales";
import { Currency } from "./money";
import { PRICE_TIERS_MAX, tierIssues } from "@/lib/services/catalog/price-tiers";

/** The currency field lives in ./money.ts; re-exported for the schemas that import it from here. */
export { Currency };

export const KEYWORDS_MAX = 50;
/** Totals are exact up to this many matches, and no page starts past it (contract 9.3). */
export const RESULT_WINDOW = 10_000;

/** Trimmed, 1-100 characters each, at most 50, de-duplicated case-insensitively. */
export const Keywords = z
  .array(z.string().trim().min(1, "Keywords cannot be empty").max(100, "At most 100 characters"))
  .max(KEYWORDS_MAX, `At most ${KEYWORDS_MAX} keywords`)
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((k) => {
      const key = k.toLocaleLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  })
  .meta({
    description: "Multilingual search keywords (zh, en, de, ja, ko, ru, es, fr, pt, ar or hi)",
    example: ["LED灯泡", "LED bulb", "LED-Glühbirne", "LED電球"],
  });

export const Price = z
  .number()
  .finite()
  .min(0)
  .max(MONEY_MAX)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "At most two decimals")
  .meta({ example: 12.5 });
const Moq = z.number().int().min(1).max(1_000_000_000);

/** Quantity price breaks (contract 9.4); their order against `price` and `moq` is checked on the whole product. */
export const PriceTiers = z
  .array(
    z.object({
      minQty: Moq.meta({ description: "From this quantity on (above the product's moq; the base price applies from the moq)", example: 500 }),
      unitPrice: Price.meta({
        description: "Unit price from minQty on, in the product's currency; below the previous tier's (the first below price)",
        example: 11.8,
      }),
    }),
  )
  .max(PRICE_TIERS_MAX, `At most ${PRICE_TIERS_MAX} price tiers`)
  .meta({
    description: `Quantity price breaks, at most ${PRICE_TIERS_MAX}: minQty strictly ascending and above moq, unitPrice strictly descending and below price. An order's unit price is the tier with the largest minQty not above its quantity. [] removes them.`,
    example: [
      { minQty: 500, unitPrice: 11.8 },
      { minQty: 2000, unitPrice: 10.9 },
    ],
  });
const Url = LinkUrl;
const Id = z.string().trim().min(1).max(100);

const productFields = {
  title: z.string().trim().min(1).max(200),
  description: z.string().max(20_000).optional(),
  price: Price,
  currency: Currency,
  category: Id.meta({ description: "Category id (or slug)" }),
  moq: Moq.meta({ description: "Minimum order quantity" }),
  acceptsOEM: z.boolean().optional(),
  images: z.array(Url).max(20).optional(),
  mainImageUrl: Url.nullable().optional(),
  keywords: Keywords.optional(),
  boothId: Id.nullable().optional(),
  priceTiers: PriceTiers.optional(),
};

/** A path segment of a tier issue: list indexes as numbers, as zod writes them. */
const seg = (p: string) => (/^\d+$/.test(p) ? Number(p) : p);

/** The older name of `moq`, still accepted on input when `moq` is absent. */
const MoqAlias = Moq.optional().meta({ description: "Deprecated: the older name of `moq`, used only when `moq` is absent", deprecated: true });

export const CreateProductBody = z
  .object({ ...productFields, moq: productFields.moq.optional(), minOrderQty: MoqAlias })
  .superRefine((v, ctx) => {
    if (v.moq === undefined && v.minOrderQty === undefined) ctx.addIssue({ code: "custom", path: ["moq"], message: "Required" });
    const moq = v.moq ?? v.minOrderQty;
    // Too many tiers is already the array's own issue.
    if (v.priceTiers && v.priceTiers.length <= PRICE_TIERS_MAX && moq !== undefined)
      for (const issue of tierIssues(v.priceTiers, { price: v.price, moq }))
        ctx.addIssue({ code: "custom", path: issue.path.split(".").map(seg), message: issue.message });
  })
  .transform(({ minOrderQty, ...v }) => ({ ...v, moq: (v.moq ?? minOrderQty)! }))
  .meta({
    id: "CreateProduct",
    // moq is optional to zod only so that the older `minOrderQty` can stand in for it.
    required: ["title", "price", "currency", "category", "moq"],
    example: {
      title: "USB-C LED desk lamp",
      price: 12.5,
      currency: "USD",
      category: "lighting",
      moq: 100,
      keywords: ["LED desk lamp", "LED台灯", "LED-Schreibtischlampe"],
      priceTiers: [
        { minQty: 500, unitPrice: 11.8 },
        { minQty: 2000, unitPrice: 10.9 },
      ],
    },
  });
export type CreateProductInput = z.output<typeof CreateProductBody>;

/** PUT: any product field; `moq` and `minOrderQty` are the same field. */
export const UpdateProductBody = z
  .object({
    title: productFields.title.optional(),
    description: productFields.description,
    price: Price.optional(),
    currency: Currency.optional(),
    category: Id.optional(),
    moq: Moq.optional(),
    minOrderQty: MoqAlias,
    acceptsOEM: z.boolean().optional(),
    images: productFields.images,
    mainImageUrl: productFields.mainImageUrl,
    keywords: productFields.keywords,
    boothId: productFields.boothId,
    priceTiers: PriceTiers.optional(),
    isHidden: z.boolean().optional().meta({ description: "Hide from buyers (search, lists, detail) without deleting" }),
    reason: z.string().max(1000).optional().meta({ description: "AI accounts: why, shown to the guardian if the change needs approval" }),
  })
  .transform(({ minOrderQty, ...v }) => ({ ...v, moq: v.moq ?? minOrderQty }))
  .meta({ id: "UpdateProduct" });
export type UpdateProductInput = z.output<typeof UpdateProductBody>;

export const PatchProductBody = z
  .object({
    boothId: Id.nullable().optional().meta({ description: "Assign to a booth of the same store (max 100 products), null to remove" }),
    acceptsOEM: z.boolean().optional(),
    minOrderQty: MoqAlias,
    moq: Moq.optional(),
    mainImageUrl: Url.nullable().optional(),
    keywords: productFields.keywords,
  })
  .transform(({ minOrderQty, ...v }) => ({ ...v, moq: v.moq ?? minOrderQty }))
  .meta({ id: "PatchProduct" });

const BoolString = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const Num = z.coerce.number().finite().min(0);

export const ProductListQuery = z
  .object({
    keyword: z.string().max(200).optional(),
    q: z.string().max(200).optional(),
    category: Id.optional(),
    minPrice: Num.optional(),
    maxPrice: Num.optional(),
    currency: Currency.optional(),
    maxMoq: z.coerce.number().int().min(1).optional(),
    acceptsOEM: BoolString.optional(),
    sellerId: Id.optional(),
    boothId: Id.optional(),
    exhibitionId: Id.optional(),
    sort: z.enum(["relevance", "price_asc", "price_desc", "newest"]).default("relevance"),
    locale: z.enum(LOCALES).default("en").meta({ description: "Language of category names" }),
    ...PageQuery.shape,
  })
  .superRefine((v, ctx) => {
    // Contract 9.3: results past the 10,000th are not served (narrow the query instead).
    if ((v.page - 1) * v.limit >= RESULT_WINDOW)
      ctx.addIssue({ code: "custom", path: ["page"], message: `Only the first ${RESULT_WINDOW} results can be paged; narrow the query` });
  });
export type ProductListInput = z.output<typeof ProductListQuery>;

export const ProductSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    price: z.number(),
    currency: z.string(),
    category: z.string(),
    categoryName: z.string().optional(),
    moq: z.number(),
    minOrderQty: z.number(),
    acceptsOEM: z.boolean(),
    images: z.array(z.string()),
    mainImageUrl: z.string().nullable(),
    keywords: z.array(z.string()),
    priceTiers: z
      .array(
        z.object({
          minQty: z.number().meta({ description: "From this quantity on" }),
          unitPrice: z.number().meta({ description: "Unit price from minQty on, in the product's currency" }),
        }),
      )
      .meta({
        description: "Quantity price breaks, ascending minQty; an order's unit price is the last tier whose minQty is not above its quantity, else price",
      }),
    boothId: z.string().nullable(),
    seller: z.object({ id: z.string(), companyName: z.string(), country: z.string().nullable() }),
    sentByAI: z.boolean(),
    isHidden: z.boolean(),
    viewCount: z.number(),
    keywordCoverage: z.object({ covered: z.array(z.string()), missing: z.array(z.string()) }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Product" });

const Relation = z.enum(["eq", "gte"]);

export const ProductPage = z
  .object({
    products: z.array(ProductSchema),
    page: z.number(),
    limit: z.number(),
    total: z.number().meta({ description: `Matching products, exact up to ${RESULT_WINDOW}; past that ${RESULT_WINDOW} with totalRelation "gte"` }),
    totalRelation: Relation.meta({ description: '"eq": total is exact; "gte": at least total products match' }),
  })
  .meta({ id: "ProductPage" });

export const SearchPage = ProductPage.extend({
  facets: z.object({ categories: z.array(z.object({ id: z.string(), name: z.string(), count: z.number() })) }),
  facetsRelation: Relation.meta({
    description: `"eq": category counts over every match; "gte": counted over the newest 1,000 matches (the query matches more than ${RESULT_WINDOW})`,
  }),
}).meta({ id: "ProductSearchPage" });
