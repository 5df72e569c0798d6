// Products whose search columns were computed by an older normalization (search_version below
// SEARCH_NORMALIZATION_VERSION) are recomputed after start-up, in the background: the server
// listens at once and old rows stay searchable the old way until their batch comes.
//
// The stale rows are found in the partial index products_search_stale_idx (migration 0023), which
// holds only them: when nothing is stale, a start reads one empty index page. The walk takes them in
// id order, STEP_ROWS a step (keyset, so a row skipped below is not met again), and yields between
// steps (PGlite runs queries on the event loop). It used to read the whole table at every start of
// every process: by id, 1,000 scattered rows a step (92 s of the database's time at 1,000,000
// products), then by pages in physical order (51.6 s; BENCHMARKS.md, sessions 17-18). Only stale
// rows are locked, FOR UPDATE SKIP LOCKED: several instances starting at once share the work without
// waiting on each other, and a seller's edit running at the same time either waits for the batch or
// is skipped by it, so its own fresh columns always win (an advisory lock alone would let a batch
// overwrite an edit it had read before). Rows written by a newer version are left alone during a
// rolling deploy; an older instance's write behind the walk's position is left to the next start.
import { and, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sqlRows } from "@/lib/db/rows";
import { products } from "@/lib/db/schema";
import { SEARCH_NORMALIZATION_VERSION, searchColumns } from "./normalize";

const STEP_ROWS = 1000;

/**
 * Stale: the index's own predicate, as a literal so PostgreSQL matches the partial index whatever the
 * plan (a bound parameter would not prove it). tests/integration/renormalize.test.ts checks the plan.
 */
const STALE = sql.raw(`search_version < ${SEARCH_NORMALIZATION_VERSION}`);

/** The stale rows' ids after `after`, in id order, at most `step` (exported so a test can EXPLAIN it). */
export const staleIds = (after: string | null, step = STEP_ROWS) =>
  sql`select id from ${products} where ${STALE}${after === null ? sql`` : sql` and id > ${after}`} order by id limit ${step}`;

/**
 * Recompute the next `step` stale rows after `after`; `next` is where the following step starts (null:
 * none left, also when this step found fewer than `step`: no probe of an emptied index at the end).
 */
export async function renormalizeStep(db: Db, after: string | null, step = STEP_ROWS): Promise<{ next: string | null; rewritten: number }> {
  const found = await sqlRows<{ id: string }>(db, staleIds(after, step));
  const stale = found.map((r) => r.id);
  if (stale.length === 0) return { next: null, rewritten: 0 };
  const next = stale.length < step ? null : stale[stale.length - 1]!;
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
  for (let after: string | null = null; !opts.shouldStop?.();) {
    const r = await renormalizeStep(db, after, opts.step);
    total += r.rewritten;
    if (r.next === null) break;
    after = r.next;
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
