// Statements on request paths must stay lookups as the site grows: each answered from an index, never
// by reading a whole table whose size is the site's (every store's products, every offer, every
// task, every user named in a chat group). Checked on plans with sequential scans priced out, as for large
// tables, on both engines. The home page's statement is the one the service runs (captured); the
// others are the shapes their services run (lib/services/trade/inquiries.ts, community/tasks.ts,
// notify/notify.ts and notify/list.ts); the public booths' page, the stores directory and the rate
// windows' sweep are captured too.
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepFinishedWindows } from "@/lib/api/rate-limit";
import type { Db } from "@/lib/db/client";
import { rawOf } from "@/lib/services/chat/raw";
import { listPublicBooths } from "@/lib/services/catalog/booths";
import { newestSuppliers } from "@/lib/services/catalog/home";
import { listPublicSellers, storeCountries } from "@/lib/services/catalog/stores";
import { FIND_PAIRS, USERS } from "@/lib/services/chat/targets";
import { testDb } from "../support/db";

let db: Db;
let close: () => Promise<void>;
const seen: { text: string; params: unknown[] }[] = [];
const ID = "0190a1b2-0000-7000-8000-000000000001";

beforeAll(async () => {
  ({ db, close } = await testDb({ onQuery: (text, params) => seen.push({ text, params }) }));
});
afterAll(async () => {
  await close?.();
});

/** The plan of `text` (with `params`), sequential scans (and with `sort: false` sorts) priced out. */
async function plan(text: string, params: unknown[] = [], opts: { sort?: boolean } = {}): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    if (opts.sort === false) await tx.execute(sql`set local enable_sort = off`);
    const rows = await rawOf(tx)(`explain ${text}`, params);
    return rows.map((r) => Object.values(r)[0]).join("\n");
  });
}
const planOf = (q: SQL) => {
  const { sql: text, params } = new PgDialect().sqlToQuery(q);
  return plan(text, params);
};

describe("statements on request paths", () => {
  it("the home page's newest stores: the public stores' index, no count of every store's products", async () => {
    seen.length = 0;
    await newestSuppliers(db);
    const statement = seen.find((s) => s.text.includes('from "seller_profiles"'));
    expect(statement).toBeDefined();
    // Sorting priced out too: on this test's few rows a sort of every matching store could win, while
    // at 20,000 stores only a walk of the index in the page's order stops after six.
    const text = await plan(statement!.text, statement!.params, { sort: false });
    expect(text).toContain("seller_profiles_public_newest_idx");
    expect(text).not.toMatch(/Seq Scan|Sort/);
  });

  it("the offer of a quoted reply, an account's tasks and unread notifications by subject", async () => {
    const cases: [SQL, string, RegExp][] = [
      [sql`select id, reply_id from offers where reply_id in (${ID}, ${ID})`, "offers_reply_idx", /Seq Scan on offers/],
      [sql`select * from tasks where created_by = ${ID} order by created_at desc limit 20`, "tasks_creator_idx", /Seq Scan on tasks|Sort/],
      [sql`select * from tasks where claimed_by = ${ID} order by created_at desc limit 20`, "tasks_claimer_idx", /Seq Scan on tasks|Sort/],
      [
        sql`select 1 from notifications where user_id = ${ID} and kind = 'message' and subject_id = ${ID} and read_at is null`,
        "notifications_user_unread_idx",
        /Seq Scan on notifications|Filter: .*subject_id/,
      ],
    ];
    for (const [q, index, bad] of cases) {
      const text = await planOf(q);
      expect(text, index).toContain(index);
      expect(text, index).not.toMatch(bad);
    }
  });

  it("the public booths' page: a walk of the published booths' index in the page's order, no sort of every booth", async () => {
    seen.length = 0;
    await listPublicBooths(db, { page: 1, limit: 24 });
    const statement = seen.find((s) => s.text.includes('from "booths"') && s.text.includes("limit"));
    expect(statement).toBeDefined();
    const text = await plan(statement!.text, statement!.params, { sort: false });
    expect(text).toContain("booths_published_updated_idx");
    expect(text).not.toMatch(/Seq Scan on booths|Sort/);
  });

  it("the stores directory: its page by name and by country, and its list of countries, on the public stores' indexes", async () => {
    const cases: [() => Promise<unknown>, (text: string) => boolean, string][] = [
      [() => listPublicSellers(db, { page: 1, limit: 24 }), (t) => t.includes("order by") && t.includes("limit"), "seller_profiles_public_name_idx"],
      [
        () => listPublicSellers(db, { country: "Germany", page: 1, limit: 24 }),
        (t) => t.includes("order by") && t.includes("limit"),
        "seller_profiles_public_country_idx",
      ],
      [() => storeCountries(db), (t) => t.includes("with recursive"), "seller_profiles_public_country_idx"],
    ];
    for (const [run, pick, index] of cases) {
      seen.length = 0;
      await run();
      const statement = seen.find((s) => s.text.includes("seller_profiles") && pick(s.text));
      expect(statement, index).toBeDefined();
      const text = await plan(statement!.text, statement!.params, { sort: false });
      expect(text, index).toContain(index);
      expect(text, index).not.toMatch(/Seq Scan on seller_profiles|Sort/);
    }
  });

  it("the sweep of ended rate windows: each window length and its ended rows on the window index", async () => {
    seen.length = 0;
    await sweepFinishedWindows(db);
    const statement = seen.find((s) => s.text.includes("delete from rate_limits"));
    expect(statement).toBeDefined();
    const text = await plan(statement!.text, statement!.params);
    expect(text).toContain("rate_limits_window_end_idx");
    expect(text).not.toMatch(/Seq Scan on rate_limits/);
  });
});

describe("the chat group's lookups", () => {
  it("finds recipients by id and by username on their indexes", async () => {
    const text = await plan(USERS, [JSON.stringify([ID, "Some_Buyer"])]);
    expect(text).toContain("users_pkey");
    expect(text).toContain("users_username_lower_key");
    expect(text).not.toMatch(/Seq Scan on users/);
  });

  it("finds each pair's conversation on the pair's index", async () => {
    const other = "0190a1b2-0000-7000-8000-000000000002";
    const keys = [
      { a: ID, b: other, p: null },
      { a: ID, b: other, p: "0190a1b2-0000-7000-8000-000000000009" },
    ];
    const text = await plan(FIND_PAIRS, [JSON.stringify(keys)]);
    expect(text).toContain("conversations_pair_product_key");
    expect(text).not.toMatch(/Seq Scan on conversations/);
  });
});
