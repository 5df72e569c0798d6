// What a cached page shows, as one version string read from the database in one indexed statement
// per request: the updated_at of every row the page displays (for lists of rows, their count and
// the sum of their updated_at, which changes when any one of them does, whatever the clocks of the
// instances that wrote them). Every write path sets updated_at on the rows it changes, so a change
// committed on any instance changes the version every instance reads next: the cache is exact
// across instances without any message between them. No row means "not cacheable here" (hidden,
// unpublished, deleted, unknown): Next answers those itself.
import type { DbHandle } from "@/lib/db/client";
import { exhibitionStatus } from "@/lib/services/catalog/exhibitions";

export type PageKind = "products" | "booths" | "stores" | "exhibitions";
export type PageVersion = {
  version: string;
  productId?: string;
  sellerId?: string;
};

// count:sum(epoch of updated_at) of a set of rows: any insert, update or removal changes it.
const rowsVersion = (alias: string) => `count(*) || ':' || coalesce(sum(extract(epoch from ${alias}.updated_at)), 0)`;

const QUERIES: Record<PageKind, string> = {
  // The product, its category's names, its store, its booth, and the store's products (the
  // related list is the store's newest, so any change among them may change it).
  products: `select p.id, p.seller_id, concat_ws('|', p.updated_at, md5(c.names::text), s.updated_at, b.id, b.updated_at, b.is_published,
      (select ${rowsVersion("r")} from products r where r.seller_id = p.seller_id)) as v
    from products p
    left join categories c on c.id = p.category_id
    left join seller_profiles s on s.id = p.seller_id
    left join booths b on b.id = p.booth_id
    where p.id = $1 and p.deleted_at is null and not p.is_hidden`,
  // The booth, its store, its exhibition and the products placed in it.
  booths: `select concat_ws('|', b.updated_at, s.updated_at, e.id, e.updated_at,
      (select ${rowsVersion("r")} from products r where r.booth_id = b.id)) as v
    from booths b
    left join seller_profiles s on s.id = b.seller_id
    left join exhibitions e on e.id = b.exhibition_id
    where b.id = $1 and b.is_published`,
  // The store, its booths and its products (the count and the newest 24 shown).
  stores: `select concat_ws('|', s.updated_at,
      (select ${rowsVersion("r")} from products r where r.seller_id = s.id),
      (select ${rowsVersion("x")} from booths x where x.seller_id = s.id)) as v
    from seller_profiles s
    where s.id = $1 and s.is_public`,
  // The exhibition, its booths and their stores' names; the status is derived from the dates at
  // request time (in JS, the same clock the page renders with).
  exhibitions: `select concat_ws('|', e.id, e.updated_at,
      (select ${rowsVersion("x")} || ':' || coalesce(sum(extract(epoch from s.updated_at)), 0)
        from booths x join seller_profiles s on s.id = x.seller_id where x.exhibition_id = e.id)) as v,
      e.starts_at, e.ends_at
    from exhibitions e
    where e.id = $1 or e.slug = $1
    order by (e.id = $1) desc
    limit 1`,
};

type Row = {
  v: string;
  id?: string;
  seller_id?: string;
  starts_at?: Date | string;
  ends_at?: Date | string;
};

async function query(handle: DbHandle, text: string, params: string[]): Promise<Row[]> {
  if (handle.kind === "pglite") return (await handle.client.query<Row>(text, params)).rows;
  return (await handle.client.unsafe(text, params, {
    prepare: true,
  })) as unknown as Row[];
}

/** The version of one page, or null when the page is not one the cache may hold. */
export async function pageVersion(handle: DbHandle, kind: PageKind, param: string): Promise<PageVersion | null> {
  const [row] = await query(handle, QUERIES[kind], [param]);
  if (!row) return null;
  if (kind === "exhibitions") {
    const status = exhibitionStatus({
      startsAt: new Date(row.starts_at!),
      endsAt: new Date(row.ends_at!),
    });
    return { version: `${row.v}|${status}` };
  }
  return { version: row.v, productId: row.id, sellerId: row.seller_id };
}
