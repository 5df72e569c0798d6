// Products whose search columns were computed by an older normalization (search_version below
// SEARCH_NORMALIZATION_VERSION) are recomputed after start-up, in the background: the server
// listens at once and old rows stay searchable the old way until their batch comes.
//
// The walk goes through the table in its physical order, STEP_PAGES pages a step (a TID range
// scan: the pages are read one after the other, and only the ids of stale rows come back), so each
// query's work is bounded even when nothing is stale (PGlite runs queries on the event loop), and it
// yields between steps. It used to go by id, 1,000 ids a step: each step then fetched a thousand rows
// scattered over the table, 46 ms a step at 1,000,000 products, 92 s of the database's time after
// every start, competing with the requests (BENCHMARKS.md, session 17). Only stale rows are locked,
// FOR UPDATE SKIP LOCKED: several instances starting at once share the work without waiting on each
// other, and a seller's edit running at the same time either waits for the batch or is skipped by
// it, so its own fresh columns always win (an advisory lock alone would let a batch overwrite an
// edit it had read before). Rows written by a newer version are left alone during a rolling deploy.
// A row an update moves past the walk meanwhile was written by the current code (or a newer one);
// an older instance's write during a rolling deploy is left to the next start.
import { and, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { products } from "@/lib/db/schema";
import { SEARCH_NORMALIZATION_VERSION, searchColumns } from "./normalize";

const STEP_PAGES = 1000;

/** The products table's size in pages now (rows added later are written by the current code). */
async function tablePages(db: Db): Promise<number> {
  const [row] = await sqlRows<{ pages: number }>(db, sql`select (pg_relation_size('products') / current_setting('block_size')::int)::int as pages`);
  return Number(row?.pages ?? 0);
}

/** Recompute the stale rows of the `step` pages from page `from`; `next` is the page after them. */
export async function renormalizeStep(db: Db, from: number, step = STEP_PAGES): Promise<{ next: number; rewritten: number }> {
  const tid = (page: number) => `(${page},0)`;
  const found = await sqlRows<{ id: string }>(
    db,
    sql`select id from ${products} where ctid >= ${tid(from)}::tid and ctid < ${tid(from + step)}::tid and search_version < ${SEARCH_NORMALIZATION_VERSION}`,
  );
  const next = from + step;
  const stale = found.map((r) => r.id);
  if (stale.length === 0) return { next, rewritten: 0 };
  const rewritten = await db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: products.id,
        title: products.title,
        description: products.description,
        keywords: products.keywords,
      })
      .from(products)
      .where(and(inArray(products.id, stale), lt(products.searchVersion, SEARCH_NORMALIZATION_VERSION)))
      .for("update", { skipLocked: true });
    if (rows.length === 0) return 0;
    const values = JSON.stringify(rows.map((p) => ({ id: p.id, ...searchColumns(p) })));
    // One statement for the batch (text, not jsonb, as the parameter type: postgres.js would
    // encode a string as a JSON string).
    await tx.execute(sql`update ${products} p set
        search_text = v."searchText", title_norm = v."titleNorm", cjk_grams = v."cjkGrams", tokens = v."tokens",
        keywords_norm = v."keywordsNorm", search_version = v."searchVersion"
      from jsonb_to_recordset(${values}::text::jsonb) as v(id text, "searchText" text, "titleNorm" text, "cjkGrams" text[],
        "tokens" text[], "keywordsNorm" text[], "searchVersion" smallint)
      where p.id = v.id`);
    return rows.length;
  });
  return { next, rewritten };
}

/** The whole walk; resolves with the number of rows rewritten. `shouldStop` ends it between steps. */
export async function renormalizeSearchColumns(db: Db, opts: { step?: number; shouldStop?: () => boolean } = {}): Promise<number> {
  let total = 0;
  const pages = await tablePages(db);
  for (let from = 0; from < pages && !opts.shouldStop?.();) {
    const r = await renormalizeStep(db, from, opts.step);
    total += r.rewritten;
    from = r.next;
    // Let requests, timers and signals run between steps (a PGlite query holds the event loop).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/** Start-up: run the walk in the background; `stop()` ends it (before the database closes). */
export function startRenormalization(db: Db): {
  done: Promise<number>;
  stop: () => Promise<void>;
} {
  let stopping = false;
  const done = renormalizeSearchColumns(db, {
    shouldStop: () => stopping,
  }).then(
    (n) => {
      if (n > 0) console.log(`search columns recomputed for ${n} products (normalization v${SEARCH_NORMALIZATION_VERSION})`);
      return n;
    },
    (err: unknown) => {
      // Not fatal: stale rows stay searchable the old way and the next start tries again.
      if (!stopping) console.error("recomputing search columns failed", err);
      return 0;
    },
  );
  return {
    done,
    stop: async () => {
      stopping = true;
      await done;
    },
  };
}
