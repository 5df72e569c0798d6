// Raw database access for the baselines: postgres.js (DATABASE_URL) or PGlite (PGLITE_DIR, a copy
// of the app's directory, since the app holds a lock on its own). No ORM.
import type { ProductRow } from "@/lib/services/catalog/product-view";

export type RawDb = {
  kind: "postgres" | "pglite";
  query: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  close: () => Promise<void>;
};

export async function openRaw(): Promise<RawDb> {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DATABASE_POOL_MAX ?? 10), onnotice: () => {} });
    return {
      kind: "postgres",
      query: async (text, params = []) => [...(await sql.unsafe(text, params as never[], { prepare: true }))] as Record<string, unknown>[],
      close: () => sql.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const db = await PGlite.create(process.env.PGLITE_DIR!, { extensions: { pg_trgm } });
  return { kind: "pglite", query: async (text, params = []) => (await db.query<Record<string, unknown>>(text, params)).rows, close: () => db.close() };
}

/** A raw products row (snake_case columns) in the shape Drizzle hands to productView. */
export function productRow(r: Record<string, unknown>): ProductRow {
  return {
    ...(r as unknown as ProductRow),
    id: r.id as string,
    sellerId: r.seller_id as string,
    categoryId: r.category_id as string,
    boothId: (r.booth_id as string | null) ?? null,
    title: r.title as string,
    description: r.description as string,
    price: r.price as string,
    currency: r.currency as string,
    moq: r.moq as number,
    acceptsOEM: r.accepts_oem as boolean,
    images: r.images as string[],
    mainImageUrl: (r.main_image_url as string | null) ?? null,
    keywords: r.keywords as string[],
    priceTiers: (r.price_tiers as ProductRow["priceTiers"] | undefined) ?? [],
    isHidden: r.is_hidden as boolean,
    sentByAI: r.sent_by_ai as boolean,
    viewCount: r.view_count as number,
    createdAt: new Date(r.created_at as string),
    updatedAt: new Date(r.updated_at as string),
  };
}
