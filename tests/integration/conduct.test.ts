import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AiActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { approvals, categories, inquiries, inquiryReplies, orders, products } from "@/lib/db/schema";
import { seedFxRates } from "@/lib/db/seed/fx-rates";
import { systemCtx } from "@/lib/gate/context";
import { createAccount } from "@/lib/services/accounts/create";
import { createAiAccountRecord, updateAiAccount } from "@/lib/services/ai/accounts";
import { decideApproval, expireDueApprovals, listApprovals, requestApproval } from "@/lib/services/ai/approvals";
import { assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { sellerPriceRule } from "@/lib/services/ai/price-mandate";
import { buyerMandateRule } from "@/lib/services/ai/mandate";
import { defaultPermissions } from "@/lib/ai/permissions";
import { unique } from "../support/api";
import { testDb } from "../support/db";

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await testDb());
  await seedFxRates(db);
});
afterAll(async () => close());

async function world() {
  const guardian = await createAccount(db, { email: `${unique()}@example.test`, username: unique("g_"), password: "long-enough-1", role: "SELLER" });
  const other = await createAccount(db, { email: `${unique()}@example.test`, username: unique("o_"), password: "long-enough-1", role: "SELLER" });
  const buyerAi = await createAiAccountRecord(db, guardian.id, "AI_BUYER", "long-enough-2");
  const sellerAi = await createAiAccountRecord(db, guardian.id, "AI_SELLER", "long-enough-2");
  const actor = (ai: typeof buyerAi): AiActor => ({
    type: "ai",
    user: { id: ai.aiUserId, username: ai.username, email: "", role: ai.role, sellerProfileId: null },
    guardian: { id: guardian.id, username: "g", sellerProfileId: guardian.sellerProfileId },
    permissions: defaultPermissions(ai.role),
    session: { id: "s", via: "bearer" },
    rateTier: "standard",
  });
  const [cat] = await db
    .insert(categories)
    .values({ slug: unique("cat-"), names: { en: "Test" } })
    .returning();
  const [product] = await db
    .insert(products)
    .values({ sellerId: other.sellerProfileId!, categoryId: cat!.id, title: "Widget", price: "100.00", currency: "USD", moq: 1 })
    .returning();
  return { guardian, other, buyerAi, sellerAi, buyer: actor(buyerAi), seller: actor(sellerAi), product: product! };
}

describe("self-trade", () => {
  it("refuses the guardian, the guardian's store and the sibling; allows others", async () => {
    const w = await world();
    const refused = [
      { userId: w.guardian.id },
      { sellerProfileId: w.guardian.sellerProfileId },
      { userId: w.sellerAi.aiUserId },
      { userId: w.buyerAi.aiUserId },
    ];
    for (const c of refused) await expect(assertNotSelfTrade(systemCtx(db, w.buyer), c)).rejects.toMatchObject({ code: "self_trade_forbidden", status: 403 });
    await expect(assertNotSelfTrade(systemCtx(db, w.seller), { userId: w.buyerAi.aiUserId })).rejects.toMatchObject({ code: "self_trade_forbidden" });
    await expect(assertNotSelfTrade(systemCtx(db, w.buyer), { userId: w.other.id, sellerProfileId: w.other.sellerProfileId })).resolves.toBeUndefined();
  });
});

describe("guardian confirmation rules", () => {
  it("holds orders over the threshold or past the monthly budget", async () => {
    const w = await world();
    const rule = async (total: number, currency: string) => (await buyerMandateRule(systemCtx(db, w.buyer), { total, currency }))?.rule ?? null;
    expect(await rule(5000, "USD")).toBeNull();
    expect(await rule(5000.01, "USD")).toMatch(/exceeds the approval threshold of 5000.00 USD/);
    await updateAiAccount(db, w.guardian.id, { aiUserId: w.buyerAi.aiUserId, monthlyBudget: 1000 });
    await db.insert(orders).values({
      productId: w.product.id,
      buyerId: w.buyerAi.aiUserId,
      sellerId: w.other.sellerProfileId!,
      quantity: 8,
      unitPrice: "100",
      currency: "USD",
      total: "800",
      status: "placed",
    });
    await db.insert(orders).values({
      productId: w.product.id,
      buyerId: w.buyerAi.aiUserId,
      sellerId: w.other.sellerProfileId!,
      quantity: 8,
      unitPrice: "100",
      currency: "USD",
      total: "800",
      status: "cancelled",
    });
    expect(await rule(200, "USD")).toBeNull();
    expect(await rule(200.01, "USD")).toMatch(/monthly budget of 1000.00 USD/);
    // Another currency no longer starts a budget of its own (contract 9.2): 800 USD + 250 EUR is over 1,000 USD.
    expect(await rule(250, "EUR")).toMatch(
      /250\.00 EUR \(260\.27 USD\) would bring this month's spend to 1060\.27 USD, past the monthly budget of 1000\.00 USD/,
    );
  });

  it("holds prices deeper than maxDiscountPercent below the reference, compared in the reference currency", async () => {
    const w = await world();
    const ref = { amount: "100.00", currency: "USD" };
    const rule = (amount: string, currency = "USD") => sellerPriceRule(systemCtx(db, w.seller), ref, ref, { amount, currency });
    expect(await rule("90.00")).toBeNull();
    expect(await rule("89.99")).toMatchObject({ ruleCode: "discount", ruleParams: { percent: "10.01", max: "10.00" } });
    expect((await rule("89.99"))!.rule).toMatch(/more than the allowed 10.00%/);
    expect(await rule("120.00")).toBeNull();
    // The same number in a cheaper currency is a deep cut: 100 JPY is far below 100 USD.
    expect(await rule("100.00", "JPY")).toMatchObject({
      ruleCode: "discount",
      price: { new: { amount: 100, currency: "JPY" }, reference: { amount: 100, currency: "USD" } },
    });
    await expect(rule("100.00", "ZZZ")).rejects.toMatchObject({ code: "validation_failed" });
  });
});

describe("approvals queue", () => {
  it("releases a held order on approval and rejects another", async () => {
    const w = await world();
    const mk = async () => {
      const [o] = await db
        .insert(orders)
        .values({
          productId: w.product.id,
          buyerId: w.buyerAi.aiUserId,
          sellerId: w.other.sellerProfileId!,
          quantity: 80,
          unitPrice: "100",
          currency: "USD",
          total: "8000",
          status: "pending_guardian_approval",
          sentByAI: true,
        })
        .returning();
      return requestApproval(
        { ...systemCtx(db, w.buyer), ip: "127.0.0.1" },
        {
          kind: "order",
          subjectId: o!.id,
          summary: { item: "Widget", quantity: 80, total: 8000, currency: "USD", rule: "over threshold" },
          reason: "restock",
        },
      );
    };
    const a1 = await mk();
    const a2 = await mk();
    const list = await listApprovals(db, w.guardian.id, { status: "pending", page: 1, limit: 20 });
    expect(list.total).toBe(2);
    expect(list.approvals[0]).toMatchObject({ kind: "order", reason: "restock", status: "pending", aiUsername: w.buyerAi.username });

    expect((await decideApproval(db, w.guardian.id, a1.id, "approved")).status).toBe("approved");
    expect((await decideApproval(db, w.guardian.id, a2.id, "rejected")).status).toBe("rejected");
    const [o1] = await db.select().from(orders).where(eq(orders.id, a1.subjectId));
    const [o2] = await db.select().from(orders).where(eq(orders.id, a2.subjectId));
    expect(o1!.status).toBe("placed");
    expect(o2!.status).toBe("rejected");
    await expect(decideApproval(db, w.guardian.id, a1.id, "rejected")).rejects.toMatchObject({ status: 409 });
    await expect(decideApproval(db, w.other.id, a1.id, "approved")).rejects.toMatchObject({ status: 404 });
  });

  it("expires after 72 h, with the held quote", async () => {
    const w = await world();
    const [inq] = await db
      .insert(inquiries)
      .values({ productId: w.product.id, sellerId: w.guardian.sellerProfileId!, buyerId: w.other.id, message: "price?" })
      .returning();
    const [reply] = await db
      .insert(inquiryReplies)
      .values({
        inquiryId: inq!.id,
        authorId: w.sellerAi.aiUserId,
        message: "50% off",
        quotedPrice: "50",
        currency: "USD",
        status: "pending_guardian_approval",
        sentByAI: true,
      })
      .returning();
    const a = await requestApproval(
      { ...systemCtx(db, w.seller), ip: "127.0.0.1" },
      {
        kind: "quote",
        subjectId: reply!.id,
        summary: { item: "Widget", listPrice: 100, unitPrice: 50, rule: "50% off" },
      },
    );
    await db
      .update(approvals)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(approvals.id, a.id));
    expect(await expireDueApprovals(db, w.guardian.id)).toBe(1);
    const [r] = await db.select().from(inquiryReplies).where(eq(inquiryReplies.id, reply!.id));
    expect(r!.status).toBe("expired");
    await expect(decideApproval(db, w.guardian.id, a.id, "approved")).rejects.toMatchObject({ status: 409 });
  });
});
