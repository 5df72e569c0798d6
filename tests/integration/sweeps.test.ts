import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claimKey } from "@/lib/api/idempotency";
import { hashPassword } from "@/lib/auth/password";
import { sweepSessions } from "@/lib/auth/sessions";
import type { Db } from "@/lib/db/client";
import { idempotencyKeys, sessions, users } from "@/lib/db/schema";
import { SWEEP_BATCH } from "@/lib/db/sweep";
import { signIn } from "@/lib/services/auth/sign-in";
import { KNOWN_ADDRESS_DAYS } from "@/lib/services/auth/throttle";
import { testDb } from "../support/db";

// Rows past their use are swept by the requests that write such rows (lib/db/sweep.ts), on both engines:
// Idempotency-Key answers after their 24 hours (contract 1), sessions that can never be used again once
// sign-in no longer asks about their address.
let db: Db;
let close: () => Promise<void>;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

beforeAll(async () => {
  ({ db, close } = await testDb());
});
afterAll(async () => {
  await close();
});
/** Each sweep is due once a minute per process (lib/db/sweep.ts): as if none had run yet. */
const resetSweeps = () => (globalThis as typeof globalThis & { [k: symbol]: Map<string, number> | undefined })[Symbol.for("expo-trade.sweeps")]?.clear();
beforeEach(resetSweeps);

describe("Idempotency-Key answers", () => {
  const keyRow = (owner: string, key: string, createdAt: Date) => ({
    owner,
    key,
    method: "POST",
    path: "/api/inquiries",
    requestHash: "h",
    state: "done" as const,
    responseStatus: 201,
    responseBody: "{}",
    createdAt,
  });
  const keysOf = async (owners: string[]) =>
    (await db.select({ owner: idempotencyKeys.owner, key: idempotencyKeys.key }).from(idempotencyKeys))
      .filter((r) => owners.includes(r.owner))
      .map((r) => `${r.owner}:${r.key}`)
      .sort();

  it("are swept past their 24 hours by the next claim of any key, younger ones kept, at most once a minute", async () => {
    await db
      .insert(idempotencyKeys)
      .values([
        keyRow("a", "old", ago(25 * HOUR)),
        keyRow("a", "young", ago(23 * HOUR)),
        keyRow("b", "old-1", ago(3 * DAY)),
        keyRow("b", "old-2", ago(30 * DAY)),
      ]);
    expect(await claimKey(db, "c", "new", "POST", "/api/inquiries", "h2")).toEqual({ kind: "new", owner: "c", key: "new" });
    expect(await keysOf(["a", "b", "c"])).toEqual(["a:young", "c:new"]);
    // Within the minute the next claim does not sweep again.
    await db.insert(idempotencyKeys).values(keyRow("b", "old-3", ago(2 * DAY)));
    await claimKey(db, "c", "newer", "POST", "/api/inquiries", "h3");
    expect(await keysOf(["a", "b", "c"])).toEqual(["a:young", "b:old-3", "c:new", "c:newer"]);
  });

  it("are swept a bounded batch at a time: a backlog goes over several sweeps", async () => {
    const backlog = SWEEP_BATCH + 10;
    await db.execute(sql`
      insert into ${idempotencyKeys} (owner, key, method, path, request_hash, state, created_at)
      select 'backlog', 'k' || i, 'POST', '/api/inquiries', 'h', 'done', now() - interval '2 days' from generate_series(1, ${backlog}) i`);
    const stale = async () =>
      Number(
        (
          await db
            .select({ n: sql<number>`count(*)::int` })
            .from(idempotencyKeys)
            .where(sql`${idempotencyKeys.createdAt} < now() - interval '24 hours'`)
        )[0]!.n,
      );
    const before = await stale();
    expect(before).toBeGreaterThan(SWEEP_BATCH);
    await claimKey(db, "d", "one", "POST", "/api/inquiries", "h");
    expect(await stale()).toBe(before - SWEEP_BATCH);
    resetSweeps();
    await claimKey(db, "d", "two", "POST", "/api/inquiries", "h");
    expect(await stale()).toBe(0);
  });
});

describe("sessions", () => {
  let userId = "";
  const password = "sweep-pass-123";
  beforeAll(async () => {
    const [u] = await db
      .insert(users)
      .values({ email: `sweep-${Date.now()}@example.test`, username: `sweep_${Date.now()}`, passwordHash: await hashPassword(password), role: "BUYER" })
      .returning();
    userId = u!.id;
  });
  const session = (label: string, createdAt: Date, expiresAt: Date, revokedAt: Date | null = null) => ({
    userId,
    kind: "token" as const,
    userAgent: label,
    createdAt,
    expiresAt,
    revokedAt,
  });
  const labels = async () =>
    (await db.select({ label: sessions.userAgent }).from(sessions).where(eq(sessions.userId, userId))).map((r) => r.label ?? "").sort();

  it("are swept once they can never be used again and started before the known-address window, at the next sign-in", async () => {
    const old = ago((KNOWN_ADDRESS_DAYS + 10) * DAY);
    await db.insert(sessions).values([
      session("old expired", old, ago((KNOWN_ADDRESS_DAYS - 20) * DAY)),
      session("old revoked", old, ago(-DAY), ago(5 * DAY)),
      // Still usable: kept, however old.
      session("old usable", old, ago(-DAY)),
      // Expired, but sign-in still recognizes its address for a while.
      session("recent expired", ago(40 * DAY), ago(10 * DAY)),
    ]);
    expect(await sweepSessions(db, KNOWN_ADDRESS_DAYS)).toBe(2);
    expect(await labels()).toEqual(["old usable", "recent expired"]);

    // The sign-in path sweeps too.
    await db.insert(sessions).values(session("old expired again", old, ago((KNOWN_ADDRESS_DAYS - 20) * DAY)));
    const user = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    await signIn(db, { identifier: user[0]!.email, password, kind: "token", lifetimeSeconds: 3600, ip: "203.0.113.9", userAgent: "new sign-in" });
    expect(await labels()).toEqual(["new sign-in", "old usable", "recent expired"]);
  });
});
