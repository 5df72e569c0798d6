// Property (issue #14 point 7): no sequence of AI_BUYER orders, whatever their amounts, currencies,
// stores and times, spends past the guardian's threshold (alone, or to one store within 24 hours) or
// past the monthly budget without an order being held. Against the order service on a database of
// its own; each run is a fresh agent with a random mandate, and time is the order's own clock.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultPermissions } from "@/lib/ai/permissions";
import type { AiActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { categories, products } from "@/lib/db/schema";
import { seedFxRates } from "@/lib/db/seed/fx-rates";
import { systemCtx } from "@/lib/gate/context";
import { loadRates } from "@/lib/money/convert";
import { rateUnits } from "@/lib/money/decimal";
import { createAccount } from "@/lib/services/accounts/create";
import { createAiAccountRecord, updateAiAccount } from "@/lib/services/ai/accounts";
import { placeOrder } from "@/lib/services/trade/orders";
import { unique } from "../support/api";
import { testDb } from "../support/db";

const CURRENCIES = ["USD", "EUR", "GBP", "CHF", "CNY"] as const;
const STORES = 3;
const DAY = 24 * 60 * 60 * 1000;

let db: Db;
let close: () => Promise<void>;
/** productIds[store][currency]: a product at 0.01 per unit, so the quantity is the total in cents. */
const productIds: Record<string, string>[] = [];

beforeAll(async () => {
  ({ db, close } = await testDb());
  await seedFxRates(db);
  const [cat] = await db
    .insert(categories)
    .values({ slug: unique("cat-"), names: { en: "Test" } })
    .returning();
  for (let s = 0; s < STORES; s++) {
    const seller = await createAccount(db, { email: `${unique()}@example.test`, username: unique("s_"), password: "long-enough-1", role: "SELLER" });
    const byCurrency: Record<string, string> = {};
    for (const currency of CURRENCIES) {
      const [p] = await db
        .insert(products)
        .values({ sellerId: seller.sellerProfileId!, categoryId: cat!.id, title: `P ${currency}`, price: "0.01", currency, moq: 1 })
        .returning();
      byCurrency[currency] = p!.id;
    }
    productIds.push(byCurrency);
  }
});
afterAll(async () => close());

async function freshAgent(mandate: { mandateCurrency: string; orderApprovalThreshold: number; monthlyBudget: number | null }): Promise<AiActor> {
  const guardian = await createAccount(db, { email: `${unique()}@example.test`, username: unique("g_"), password: "long-enough-1", role: "BUYER" });
  const ai = await createAiAccountRecord(db, guardian.id, "AI_BUYER", "long-enough-2");
  await updateAiAccount(db, guardian.id, { aiUserId: ai.aiUserId, ...mandate });
  return {
    type: "ai",
    user: { id: ai.aiUserId, username: ai.username, email: "", role: "AI_BUYER", sellerProfileId: null },
    guardian: { id: guardian.id, username: guardian.username, sellerProfileId: null },
    permissions: defaultPermissions("AI_BUYER"),
    session: { id: "s", via: "bearer" },
    rateTier: "standard",
  };
}

const step = fc.record({
  store: fc.integer({ min: 0, max: STORES - 1 }),
  currency: fc.constantFrom(...CURRENCIES),
  cents: fc.integer({ min: 1, max: 400_000 }),
  // Up to two days between orders: sequences cross 24-hour windows and month ends.
  gapMinutes: fc.integer({ min: 0, max: 2 * 24 * 60 }),
});

const mandateArb = fc.record({
  mandateCurrency: fc.constantFrom("USD", "EUR", "CHF"),
  orderApprovalThreshold: fc.integer({ min: 50, max: 4000 }),
  monthlyBudget: fc.option(fc.integer({ min: 100, max: 9000 }), { nil: null }),
});

/** Exact value in the mandate currency, scaled by 10^6 (no rounding to hide behind). */
const PRECISION = 1_000_000n;

describe("the buyer mandate holds against any order sequence", () => {
  it("never lets unapproved spend cross the threshold, the 24-hour store total or the monthly budget", async () => {
    const rates = await loadRates(db);
    const value = (cents: number, from: string, to: string) => (BigInt(cents) * rateUnits(rates.get(to)!) * PRECISION) / rateUnits(rates.get(from)!);
    // The rule rounds each currency's sum to the cent once: at most half a cent per currency.
    const slack = BigInt(CURRENCIES.length) * PRECISION;

    await fc.assert(
      fc.asyncProperty(
        mandateArb,
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        async (mandate, steps, startOffset) => {
          const actor = await freshAgent(mandate);
          // Starts within three days before a month's end, so many sequences cross into the next month.
          let t = Date.UTC(2031, 0, 29) + startOffset * 60_000;
          const placed: { i: number; at: number; store: number; v: bigint }[] = [];
          for (const [i, s] of steps.entries()) {
            t += s.gapMinutes * 60_000;
            const res = await placeOrder(systemCtx(db, actor), { productId: productIds[s.store]![s.currency]!, quantity: s.cents }, new Date(t));
            if (res.order.status === "placed") placed.push({ i, at: t, store: s.store, v: value(s.cents, s.currency, mandate.mandateCurrency) });
            else expect(res.order.status).toBe("pending_guardian_approval");
          }
          const threshold = BigInt(mandate.orderApprovalThreshold) * 100n * PRECISION + slack;
          const budget = mandate.monthlyBudget === null ? null : BigInt(mandate.monthlyBudget) * 100n * PRECISION + slack;
          const month = (at: number) => new Date(at).toISOString().slice(0, 7);
          for (const o of placed) {
            const before = placed.filter((p) => p.i <= o.i);
            const sum = (xs: typeof placed) => xs.reduce((acc, x) => acc + x.v, 0n);
            expect(o.v <= threshold, `order ${o.i} alone`).toBe(true);
            expect(sum(before.filter((p) => p.store === o.store && p.at > o.at - DAY)) <= threshold, `store ${o.store} 24 h up to order ${o.i}`).toBe(true);
            if (budget !== null) expect(sum(before.filter((p) => month(p.at) === month(o.at))) <= budget, `month up to order ${o.i}`).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
