// What a cached page shows, as one version string read from the database in one indexed statement
// per request (product pages asked for together share one): the updated_at of every row the page
// displays (for lists of rows, their count and the sum of their updated_at, which changes when any
// one of them does, whatever the clocks of the instances that wrote them). Every write path sets
// updated_at on the rows it changes, so a change committed on any instance changes the version every
// instance reads next: the cache is exact across instances without any message between them. No row
// means "not cacheable here" (hidden, unpublished, deleted, unknown): Next answers those itself.
import type { DbHandle } from "@/lib/db/client";
import { exhibitionStatus } from "@/lib/services/catalog/exhibitions";
import { KeyedBatch } from "@/lib/db/keyed-batch";

export type PageKind = "products" | "booths" | "stores" | "exhibitions";
export type PageVersion = {
  version: string;
  productId?: string;
  sellerId?: string;
};

/** The product page's related list reads the store's newest this many (app/[locale]/products/[id]/page.tsx). */
export const RELATED_READ = 5;

// count:sum(epoch of updated_at) of a set of rows: any insert, update or removal changes it.
const rowsVersion = (alias: string) => `count(*) || ':' || coalesce(sum(extract(epoch from ${alias}.updated_at)), 0)`;

const QUERIES: Record<PageKind, string> = {
  // The product, its category's names, its store, its booth, and the store's newest visible products
  // (the related list shows up to four of the newest five, in the order of listProducts' "newest"):
  // their ids and updated_at, read from the (seller_id, created_at) index, a few rows whatever the
  // store's size. A change of any other product of the store cannot change the page. The category,
  // store and booth are scalar subqueries, one primary-key probe each: as joins, the generic plan of
  // this prepared statement (used from its sixth run) hashed every store and category (1.0 ms of a
  // 1.3 ms statement at 1,000 stores, against 0.3 ms).
  products: `select p.id, p.seller_id, concat_ws('|', p.updated_at,
      (select md5(c.names::text) from categories c where c.id = p.category_id),
      (select s.updated_at from seller_profiles s where s.id = p.seller_id),
      (select concat_ws('|', b.id, b.updated_at, b.is_published) from booths b where b.id = p.booth_id),
      (select string_agg(r.id || ':' || extract(epoch from r.updated_at), ',' order by r.created_at desc, r.id desc)
        from (select r.id, r.created_at, r.updated_at from products r
          where r.seller_id = p.seller_id and r.deleted_at is null and not r.is_hidden
          order by r.created_at desc, r.id desc limit ${RELATED_READ})
        r)) as v
    from products p
    where p.id = any(array(select json_array_elements_text($1::json))) and p.deleted_at is null and not p.is_hidden`,
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

/** Product pages asked for while a read of their versions is under way: read together next. */
const batches = new WeakMap<DbHandle, KeyedBatch<string, Row | undefined>>();

/**
 * A product page's row, read together with the others asked for meanwhile (lib/db/keyed-batch.ts): one
 * statement at a time per process, each for every id that arrived before it started. A request never
 * joins a read that began before it arrived, so what it shows is still at least as new as its arrival
 * (exact at once); under load the statements grow instead of multiplying.
 */
function productRow(handle: DbHandle, id: string): Promise<Row | undefined> {
  let b = batches.get(handle);
  if (!b)
    batches.set(
      handle,
      (b = new KeyedBatch(
        async (batch) => {
          const rows = await query(handle, QUERIES.products, [JSON.stringify(batch.map((w) => w.item))]);
          const byId = new Map(rows.map((r) => [r.id!, r]));
          for (const w of batch) for (const x of w.waiters) x.resolve(byId.get(w.item));
        },
        // Started once the requests that arrived with this one have asked too (the same turn of the
        // event loop): they share its statement instead of waiting for the next.
        (go) => setImmediate(go),
      )),
    );
  return b.add(id, id);
}

/** The version of one page, or null when the page is not one the cache may hold. */
export async function pageVersion(handle: DbHandle, kind: PageKind, param: string): Promise<PageVersion | null> {
  const row = kind === "products" ? await productRow(handle, param) : (await query(handle, QUERIES[kind], [param]))[0];
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
