// Tool arguments as an agent reads them: route names replaced by the tool's (`productId`, never `id`)
// and every argument described. The schemas' own descriptions (lib/schemas) win; these fill the gaps
// with the meaning common to every route, then the tool's own words (ToolDef.describe).
import type { ToolDef } from "./tool-def";
import type { ObjectJsonSchema } from "./schema";

const COMMON: Record<string, string> = {
  page: "Page number, 1-based (default 1)",
  limit: "Items per page (default 20, at most 100)",
  status: "Only items with this status",
  locale: "Language of the texts answered (one of the site's locales, e.g. en, de, zh); default en",
  q: "Words to look for",
  keyword: "Words to look for in titles, descriptions and keywords (any language)",
  currency: "ISO 4217 currency code, e.g. USD, EUR, CNY",
  message: "Your message, as the other side will read it",
  content: "The message text",
  reason: "Why, for your guardian if the action is held for approval (AI accounts)",
  productId: "A product's id (from search_products or get_product)",
  storeId: "A store's id (the storeId that products, booths and inquiries show)",
  sellerId: "A store's id (the storeId that products, booths and inquiries show)",
  boothId: "A booth's id (from list_booths or a product)",
  exhibitionId: "An exhibition's id (from list_exhibitions)",
  conversationId: "A conversation's id (from list_conversations or a sent message)",
  quantity: "Number of units",
  unitPrice: "Price per unit, in currency",
  validUntil: "Until when the offer stands (ISO 8601 date-time)",
  before: "Page backwards: the nextBefore of the previous answer",
  unread: "true: only unread ones",
  mine: "true: only tasks you posted or claimed",
  category: "A category id or slug (from list_categories); subcategories are included",
  minPrice: "Lowest unit price, in currency (USD by default)",
  maxPrice: "Highest unit price, in currency (USD by default)",
  maxMoq: "Only products whose minimum order quantity is at most this",
  acceptsOEM: "Whether the store makes the product to your specification (OEM)",
  sort: "Order of the answer",
  title: "The title others see first",
  description: "The full description",
  name: "The name others see",
  price: "Unit price, in currency (the reference price for the discount rule)",
  moq: "Minimum order quantity (required when creating; minOrderQty is the same field)",
  minOrderQty: "Same as moq: the minimum order quantity",
  images: "Image URLs (from POST /api/upload), at most 20",
  mainImageUrl: "The image shown first (one of images), or null",
  exhibitionName: "The exhibition the booth is at",
  location: "Where the booth stands (hall and stand number)",
  logoUrl: "The logo's URL (from POST /api/upload), or null",
  bannerUrl: "The banner's URL (from POST /api/upload), or null",
  theme: "The booth's visual theme name, or null",
  colorScheme: "The booth's colour scheme name, or null",
  documents: "Documents shown at the booth (uploaded files: url, name, type, size)",
  quotedPrice: "A unit price to quote (with currency and quantity): makes the reply an offer the buyer may accept",
  budget: "What you mean to spend in all, in currency",
  note: "A note to the store with the order",
  reward: "What you pay for the task, in currency (counts against your mandate)",
  result: "What you did, for the task's poster",
};

/** The tool's names in place of the route's (keeping the route's schema and required flag). */
export function renameArguments(schema: ObjectJsonSchema, rename: ToolDef["rename"]): ObjectJsonSchema {
  if (!rename) return schema;
  const toTool = new Map(Object.entries(rename).map(([toolName, routeName]) => [routeName, toolName]));
  const properties: Record<string, object> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const toolName = toTool.get(name);
    if (!toolName) properties[name] = prop;
    else properties[toolName] = routeName(prop, toolName);
  }
  return { ...schema, properties, ...(schema.required ? { required: schema.required.map((r) => toTool.get(r) ?? r) } : {}) };
}

function routeName(prop: object, toolName: string): object {
  const thing = toolName
    .replace(/Ids?$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  const own = (prop as { description?: string }).description;
  return { ...prop, description: own && !/^(the )?(record's )?id\b/i.test(own) ? own : toolName.endsWith("Ids") ? `The ${thing}s' ids` : `The ${thing}'s id` };
}

/** Every argument with a description. */
export function describeArguments(schema: ObjectJsonSchema, tool: ToolDef): ObjectJsonSchema {
  const properties: Record<string, object> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const own = (prop as { description?: string }).description;
    const fill = tool.describe?.[name] ?? COMMON[name];
    properties[name] = own || !fill ? prop : { ...prop, description: fill };
  }
  return { ...schema, properties };
}

/** The tool's name for a route argument the caller used instead (e.g. `id` -> `productId`). */
export function renamedTo(rename: ToolDef["rename"], routeArg: string): string | undefined {
  return Object.entries(rename ?? {}).find(([, r]) => r === routeArg)?.[0];
}
