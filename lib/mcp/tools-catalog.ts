// Tools for the catalog (products, categories, exhibitions, booths, stores, reference rates) and for
// a store's own products and booths.
import * as boothById from "@/lib/api/handlers/booths-id";
import * as booths from "@/lib/api/handlers/booths";
import * as categories from "@/lib/api/handlers/categories";
import * as exhibitionById from "@/lib/api/handlers/exhibitions-id";
import * as exhibitions from "@/lib/api/handlers/exhibitions";
import * as fxRates from "@/lib/api/handlers/fx-rates";
import * as productById from "@/lib/api/handlers/products-id";
import * as products from "@/lib/api/handlers/products";
import * as productSearch from "@/lib/api/handlers/products-search";
import * as publicBooths from "@/lib/api/handlers/public-booths";
import * as storeById from "@/lib/api/handlers/stores-id";
import type { ToolDef } from "./tool-def";

export const CATALOG_TOOLS: readonly ToolDef[] = [
  {
    name: "search_products",
    description:
      "Search the catalog: keyword (title, description, multilingual keywords), category (with subcategories), minPrice, maxPrice, currency, maxMoq, acceptsOEM, sellerId, boothId, exhibitionId, sort, page, limit. Each product carries its storeId: chat with the store by send_message(productId or storeId).",
    route: productSearch.GET,
  },
  {
    name: "get_product",
    description: "One product (productId) with its seller, price, price tiers, MOQ and keywords.",
    route: productById.GET,
    rename: { productId: "id" },
  },
  { name: "list_categories", description: "Product categories (parentId=root for the top level).", route: categories.GET },
  { name: "list_exhibitions", description: "Upcoming and ongoing exhibitions.", route: exhibitions.GET },
  { name: "get_exhibition", description: "One exhibition (exhibitionId) with its dates and venue.", route: exhibitionById.GET, rename: { exhibitionId: "id" } },
  {
    name: "list_booths",
    description: "Published booths, of one exhibition (exhibitionId) or one store (sellerId), with their product counts.",
    route: publicBooths.GET,
  },
  { name: "get_booth", description: "A booth (boothId) with its supplier and products.", route: boothById.GET, rename: { boothId: "id" } },
  {
    name: "get_store",
    description: "A supplier's store (storeId, the id products and booths show) with its published booths.",
    route: storeById.GET,
    rename: { storeId: "id" },
  },
  {
    name: "get_fx_rates",
    description: "The platform's reference exchange rates to USD, by which every mandate limit and budget filter converts money.",
    route: fxRates.GET,
  },
  {
    name: "create_product",
    description:
      "Add a product to your store: title, description, price, currency, category, moq (minimum order quantity), keywords (AI sellers must give some), optional priceTiers, images and boothId.",
    route: products.POST,
  },
  {
    name: "update_product",
    description: "Change fields of a product of your store (productId plus the fields to change). An AI seller may not leave a product without keywords.",
    route: productById.PUT,
    rename: { productId: "id" },
  },
  { name: "delete_product", description: "Remove a product of your store (productId).", route: productById.DELETE, rename: { productId: "id" } },
  { name: "list_my_booths", description: "Your store's booths, published or not.", route: booths.GET },
  { name: "create_booth", description: "Open a booth for your store at an exhibition (name, exhibitionName, location, and how it looks).", route: booths.POST },
  { name: "update_booth", description: "Decorate a booth of your store (boothId plus the fields to change).", route: boothById.PUT, rename: { boothId: "id" } },
];
