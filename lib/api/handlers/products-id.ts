// GET /api/products/:id - product details (counts a view)
// PUT /api/products/:id - update any fields
// PATCH /api/products/:id - booth assignment, OEM, minimum order, main image
// DELETE /api/products/:id - delete a product of your store
import { deleteProductOp, getProductOp, patchProductOp, updateProductOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { deleteProduct, getProduct, updateProduct } from "@/lib/services/catalog/products";

export const GET = route(getProductOp, async ({ ctx, params, query }) => ({ product: await getProduct(ctx, params.id, query.locale) }));

export const PUT = route(updateProductOp, async ({ ctx, params, body }) => ({ product: await updateProduct(ctx, params.id, body) }));

export const PATCH = route(patchProductOp, async ({ ctx, params, body }) => ({ product: await updateProduct(ctx, params.id, body) }));

export const DELETE = route(deleteProductOp, async ({ ctx, params }) => deleteProduct(ctx, params.id));
