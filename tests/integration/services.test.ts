import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { claimKey, completeKey } from "@/lib/api/idempotency";
import { bumpCount, consumeRateLimit, peekCounts, sweepFinishedWindows } from "@/lib/api/rate-limit";
import type { Db } from "@/lib/db/client";
import { accountTokens, auditLogs, emailOutbox, idempotencyKeys, products, productViewCounts, rateLimits } from "@/lib/db/schema";
import { applicationName } from "@/lib/instance";
import { bcryptCounts } from "@/lib/auth/hash-pool";
import { createAccount } from "@/lib/services/accounts/create";
import { confirmPasswordReset, requestPasswordReset } from "@/lib/services/auth/password-reset";
import { createAiAccountRecord } from "@/lib/services/ai/accounts";
import { auditChainBreak, verifyAuditChain, writeAudit } from "@/lib/services/ai/audit";
import { writeViews } from "@/lib/services/catalog/views";
import { searchColumns } from "@/lib/search/normalize";
import { unique } from "../support/api";
import { storeWithCategory, testDb } from "../support/db";

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await testDb());
});
afterAll(async () => close());

describe("services on the database", () => {
  it("chains audit rows per AI account and detects tampering", async () => {
    const guardian = await createAccount(db, { email: `${unique()}@example.test`, username: unique("g_"), password: "long-enough-1", role: "BUYER" });
    const ai = await createAiAccountRecord(db, guardian.id, "AI_BUYER", "long-enough-2");
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        writeAudit(db, {
          aiUserId: ai.aiUserId,
          guardianId: guardian.id,
          action: "product.browse",
          details: `call ${i}`,
          ip: "127.0.0.1",
          success: i % 3 !== 0,
        }),
      ),
    );
    const rows = await db.select().from(auditLogs).where(eq(auditLogs.aiUserId, ai.aiUserId));
    expect(rows.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await verifyAuditChain(db, ai.aiUserId)).toBe(true);
    // The database refuses the edit (append-only trigger)...
    const edit = (tx: Db) =>
      tx
        .update(auditLogs)
        .set({ details: "edited" })
        .where(sql`${auditLogs.aiUserId} = ${ai.aiUserId} and ${auditLogs.seq} = 5`);
    const refused = await edit(db).then(
      () => null,
      (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ""}`,
    );
    expect(refused).toMatch(/append-only: UPDATE/);
    expect(await verifyAuditChain(db, ai.aiUserId)).toBe(true);
    // ...and when a superuser goes around the trigger, the chain shows it.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await edit(tx);
    });
    expect(await verifyAuditChain(db, ai.aiUserId)).toBe(false);
    expect(await auditChainBreak(db, ai.aiUserId)).toBe(5);
  });

  it("refuses a second AI account per role, and an AI_SELLER for a guardian without a store", async () => {
    const buyer = await createAccount(db, { email: `${unique()}@example.test`, username: unique("g_"), password: "long-enough-1", role: "BUYER" });
    await createAiAccountRecord(db, buyer.id, "AI_BUYER", "long-enough-2");
    await expect(createAiAccountRecord(db, buyer.id, "AI_BUYER", "long-enough-2")).rejects.toMatchObject({ code: "ai_account_exists", status: 409 });
    await expect(createAiAccountRecord(db, buyer.id, "AI_SELLER", "long-enough-2")).rejects.toMatchObject({ code: "seller_profile_required", status: 409 });
  });

  it("rate-limits past the limit with 429 and Retry-After", async () => {
    const key = unique("rl:");
    for (let i = 0; i < 3; i++) expect((await consumeRateLimit(db, key, 3)).remaining).toBe(2 - i);
    const err = await consumeRateLimit(db, key, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    expect(Number((err as ApiError).headers?.["Retry-After"])).toBeGreaterThan(0);
  });

  it("sweeps only windows that have ended, each by its own length", async () => {
    const day = unique("login:acct:n:");
    const hour = unique("ip:");
    const ended = unique("ip:");
    await bumpCount(db, day, 86_400);
    await bumpCount(db, hour, 3600);
    // An hour-long window that started three hours ago has ended.
    await db.insert(rateLimits).values({ key: ended, windowStart: new Date(Date.now() - 3 * 3600_000), windowSeconds: 3600, count: 5 });
    await sweepFinishedWindows(db);
    const left = await db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(inArray(rateLimits.key, [day, hour, ended]));
    expect(left.map((r) => r.key).sort()).toEqual([day, hour].sort());
    expect(await peekCounts(db, [day], 86_400)).toEqual([1]);
  });

  it("answers 409 while an idempotent request is in flight, then replays it", async () => {
    const owner = unique("u:");
    const first = await claimKey(db, owner, "k1", "POST", "/api/x", "h1");
    expect(first.kind).toBe("new");
    await expect(claimKey(db, owner, "k1", "POST", "/api/x", "h1")).rejects.toMatchObject({ code: "idempotency_in_flight", status: 409 });
    await completeKey(db, owner, "k1", new Response(JSON.stringify({ ok: 1 }), { status: 201, headers: { "content-type": "application/json" } }));
    const replay = await claimKey(db, owner, "k1", "POST", "/api/x", "h1");
    expect(replay.kind).toBe("replay");
    if (replay.kind === "replay") {
      expect(replay.response.status).toBe(201);
      expect(await replay.response.json()).toEqual({ ok: 1 });
    }
  });

  it("takes over a key left in flight by an instance that is gone, not one whose instance is connected", async () => {
    const owner = unique("u:");
    const claimedBy = async (key: string, instance: string) =>
      db.insert(idempotencyKeys).values({ owner, key, method: "POST", path: "/api/x", requestHash: "h1", state: "in_flight", claimedBy: instance });
    // Claimed by an instance that no longer has a connection (it was killed mid-request).
    await claimedBy("dead", randomUUID());
    expect((await claimKey(db, owner, "dead", "POST", "/api/x", "h1")).kind).toBe("new");
    // Now ours: a second retry meanwhile waits for it.
    await expect(claimKey(db, owner, "dead", "POST", "/api/x", "h1")).rejects.toMatchObject({ code: "idempotency_in_flight" });
    // A claim another instance holds (it took this one over) is not completed or released from here.
    await claimedBy("theirs", randomUUID());
    expect(await completeKey(db, owner, "theirs", new Response("{}", { status: 201 }))).toBe(false);
    const [theirs] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, "theirs")));
    expect(theirs?.state).toBe("in_flight");
    // Another body under the same key is still a conflict, dead claimer or not.
    await claimedBy("dead2", randomUUID());
    await expect(claimKey(db, owner, "dead2", "POST", "/api/x", "h2")).rejects.toMatchObject({ code: "idempotency_conflict" });

    if (!process.env.DATABASE_URL) return; // PGlite: one process at a time, so another claimer is always gone.
    const live = randomUUID();
    const other = postgres(process.env.DATABASE_URL, { max: 1, connection: { application_name: applicationName(live) }, onnotice: () => {} });
    await other`select 1`;
    await claimedBy("live", live);
    await expect(claimKey(db, owner, "live", "POST", "/api/x", "h1")).rejects.toMatchObject({ code: "idempotency_in_flight", status: 409 });
    await other.end();
    // The server notices the closed connection within moments.
    let claim: Awaited<ReturnType<typeof claimKey>> | undefined;
    for (let i = 0; i < 50 && !claim; i++) {
      claim = await claimKey(db, owner, "live", "POST", "/api/x", "h1").catch(() => undefined);
      if (!claim) await new Promise((r) => setTimeout(r, 50));
    }
    expect(claim?.kind).toBe("new");
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, "live")));
    expect(row?.claimedBy).not.toBe(live);
  });

  it("refuses a reset link that cannot be used before hashing the new password, and hashes once for one that can", async () => {
    const email = `${unique()}@example.test`;
    const owner = await createAccount(db, { email, username: unique("r_"), password: "long-enough-1", role: "BUYER" });
    await requestPasswordReset(db, { email, ip: `reset-${unique()}` });
    const [mail] = await db.select({ text: emailOutbox.text }).from(emailOutbox).where(eq(emailOutbox.to, email));
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail!.text)![1]!);
    /** The code `confirmPasswordReset` answered with (null: it passed) and the bcrypt hashes it started. */
    const confirm = async (t: string) => {
      const before = bcryptCounts().hash;
      const code = await confirmPasswordReset(db, { token: t, password: "brand-new-password-1" }).then(
        () => null,
        (err: unknown) => (err instanceof ApiError ? err.code : String(err)),
      );
      return { code, hashes: bcryptCounts().hash - before };
    };
    expect(await confirm("made-up-token")).toEqual({ code: "token_invalid", hashes: 0 });
    await db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, owner.id));
    expect(await confirm(token)).toEqual({ code: "token_expired", hashes: 0 });
    await db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(accountTokens.userId, owner.id));
    expect(await confirm(token)).toEqual({ code: null, hashes: 1 });
    expect(await confirm(token)).toEqual({ code: "token_used", hashes: 0 });
  });
  it("bumps view counters on the rows' own pages: a flush touches no index (products keeps room, migration 0024)", async () => {
    const { seller, category } = await storeWithCategory(db, "Counters");
    // Enough rows of ~600 bytes that the first page is as full as the table's fillfactor lets it be.
    const description = "Hand-finished ceramic lamp base with a linen shade, ".repeat(10);
    const made = await db
      .insert(products)
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          sellerId: seller,
          categoryId: category,
          title: `Counter lamp ${i}`,
          description,
          price: "10.00",
          currency: "USD",
          moq: 1,
          ...searchColumns({ title: `Counter lamp ${i}`, description, keywords: [] }),
        })),
      )
      .returning({ id: products.id });
    const ids = made.map((p) => p.id);
    const pages = async () => {
      const rows = await db
        .select({ id: products.id, ctid: sql<string>`ctid::text` })
        .from(products)
        .where(inArray(products.id, ids));
      return new Map(rows.map((r) => [r.id, r.ctid.slice(1).split(",")[0]!]));
    };
    const before = await pages();
    const first = before.get(ids[0]!)!;
    const onFirstPage = ids.filter((id) => before.get(id) === first);
    // The first page holds several rows and others follow it: it is full, as far as the fillfactor lets it be.
    expect(onFirstPage.length).toBeGreaterThan(3);
    expect(new Set(before.values()).size).toBeGreaterThan(1);
    await writeViews(
      db,
      onFirstPage.map((productId) => ({ productId, sellerId: seller, at: new Date() })),
    );
    const after = await pages();
    const counts = await db.select({ id: products.id, n: products.viewCount }).from(products).where(inArray(products.id, onFirstPage));
    expect(counts.map((c) => c.n)).toEqual(onFirstPage.map(() => 1));
    // At least one bump stays on the page (a HOT update: no index entry; the flush bumps in id order, and the
    // page has room for about one new version); without the room every one moved.
    expect(onFirstPage.filter((id) => after.get(id) === first).length).toBeGreaterThan(0);
  });

  it("keeps views as counts per product and minute, added to by every flush, and the products' counters with them", async () => {
    const { seller, category } = await storeWithCategory(db, "Minutes");
    const made = await db
      .insert(products)
      .values(
        ["Minute lamp", "Minute chair"].map((title) => ({
          sellerId: seller,
          categoryId: category,
          title,
          price: "10.00",
          currency: "USD",
          moq: 1,
          ...searchColumns({ title, description: "", keywords: [] }),
        })),
      )
      .returning({ id: products.id });
    const [lamp, chair] = made.map((p) => p.id) as [string, string];
    const at = (iso: string) => new Date(iso);
    const view = (productId: string, iso: string) => ({ productId, sellerId: seller, at: at(iso) });
    await writeViews(db, [
      view(lamp, "2026-11-30T10:00:01Z"),
      view(lamp, "2026-11-30T10:00:59.999Z"),
      view(chair, "2026-11-30T10:00:30Z"),
      view(lamp, "2026-11-30T10:01:00Z"),
      view(lamp, "2026-11-30T10:00:10Z"),
    ]);
    await writeViews(db, [view(lamp, "2026-11-30T10:00:45Z")]);
    const rows = await db
      .select({ product: productViewCounts.productId, minute: productViewCounts.minute, views: productViewCounts.views })
      .from(productViewCounts)
      .where(eq(productViewCounts.sellerId, seller));
    const seen = rows.map((r) => `${r.product === lamp ? "lamp" : "chair"} ${r.minute.toISOString()} ${r.views}`).sort();
    expect(seen).toEqual(["chair 2026-11-30T10:00:00.000Z 1", "lamp 2026-11-30T10:00:00.000Z 4", "lamp 2026-11-30T10:01:00.000Z 1"]);
    const counters = await db
      .select({ id: products.id, n: products.viewCount })
      .from(products)
      .where(inArray(products.id, [lamp, chair]));
    expect(Object.fromEntries(counters.map((c) => [c.id === lamp ? "lamp" : "chair", c.n]))).toEqual({ lamp: 5, chair: 1 });
  });
});
