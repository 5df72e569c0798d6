// The chat group's lookups must stay lookups as the site grows: each answered from its index, never
// by reading every user or conversation (a group names up to 256 recipients, a site may hold
// millions of users). Checked on the plans of the very statements the group commit runs, with
// sequential scans priced out as for a large table; both engines.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { rawOf } from "@/lib/services/chat/raw";
import { FIND_PAIRS, USERS } from "@/lib/services/chat/targets";
import { testDb } from "../support/db";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await testDb());
});
afterAll(async () => {
  await close?.();
});

async function plan(text: string, params: unknown[]): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const rows = await rawOf(tx)(`explain ${text}`, params);
    return rows.map((r) => Object.values(r)[0]).join("\n");
  });
}

describe("the chat group's lookups", () => {
  it("finds recipients by id and by username on their indexes", async () => {
    const text = await plan(USERS, [JSON.stringify(["0190a1b2-0000-7000-8000-000000000001", "Some_Buyer"])]);
    expect(text).toContain("users_pkey");
    expect(text).toContain("users_username_lower_key");
    expect(text).not.toMatch(/Seq Scan on users/);
  });

  it("finds each pair's conversation on the pair's index", async () => {
    const keys = [
      { a: "0190a1b2-0000-7000-8000-000000000001", b: "0190a1b2-0000-7000-8000-000000000002", p: null },
      { a: "0190a1b2-0000-7000-8000-000000000001", b: "0190a1b2-0000-7000-8000-000000000003", p: "0190a1b2-0000-7000-8000-000000000009" },
    ];
    const text = await plan(FIND_PAIRS, [JSON.stringify(keys)]);
    expect(text).toContain("conversations_pair_product_key");
    expect(text).not.toMatch(/Seq Scan on conversations/);
  });
});
