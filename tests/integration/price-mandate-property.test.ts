// Property (issue #14 point 7): no sequence of AI_SELLER price and currency updates, mixed with the
// store owner's own prices and the guardian's approvals, ever leaves a product more than
// `maxDiscountPercent` below its reference price (compared in the reference currency) without the
// guardian having approved it; a held change leaves price and currency exactly as they were. Against
// the product service on a database of its own; each run is a fresh store with a random mandate.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultPermissions } from "@/lib/ai/permissions";
import type { AiActor, HumanActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { categories, products } from "@/lib/db/schema";
import { seedFxRates } from "@/lib/db/seed/fx-rates";
import { systemCtx } from "@/lib/gate/context";
import { loadRates } from "@/lib/money/convert";
import { rateUnits } from "@/lib/money/decimal";
import { createAccount } from "@/lib/services/accounts/create";
import { createAiAccountRecord, updateAiAccount } from "@/lib/services/ai/accounts";
import { decideApproval } from "@/lib/services/ai/approvals";
import { updateProduct } from "@/lib/services/catalog/products";
import { eq } from "drizzle-orm";
import { unique } from "../support/api";
import { testDb } from "../support/db";

const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CNY", "IDR"] as const;

let db: Db;
let close: () => Promise<void>;
let categoryId: string;

beforeAll(async () => {
  ({ db, close } = await testDb());
  await seedFxRates(db);
  const [cat] = await db
    .insert(categories)
    .values({ slug: unique("cat-"), names: { en: "Test" } })
    .returning();
  categoryId = cat!.id;
});
afterAll(async () => close());

type Store = { owner: HumanActor; agent: AiActor; productId: string };

async function freshStore(maxDiscountPercent: number, price: string, currency: string): Promise<Store> {
  const g = await createAccount(db, { email: `${unique()}@example.test`, username: unique("g_"), password: "long-enough-1", role: "SELLER" });
  const ai = await createAiAccountRecord(db, g.id, "AI_SELLER", "long-enough-2");
  await updateAiAccount(db, g.id, { aiUserId: ai.aiUserId, maxDiscountPercent });
  const user = { id: g.id, username: g.username, email: "", role: "SELLER" as const, sellerProfileId: g.sellerProfileId! };
  const owner: HumanActor = { type: "human", user, session: { id: "s", via: "bearer" }, rateTier: "standard" };
  const agent: AiActor = {
    type: "ai",
    user: { id: ai.aiUserId, username: ai.username, email: "", role: "AI_SELLER", sellerProfileId: null },
    guardian: { id: g.id, username: g.username, sellerProfileId: g.sellerProfileId! },
    permissions: defaultPermissions("AI_SELLER"),
    session: { id: "s", via: "bearer" },
    rateTier: "standard",
  };
  const [p] = await db
    .insert(products)
    .values({ sellerId: g.sellerProfileId!, categoryId, title: "P", price, currency, moq: 1, keywords: ["p"] })
    .returning();
  return { owner, agent, productId: p!.id };
}

const cents = fc.integer({ min: 1, max: 50_000_000 });
const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      by: fc.constant("agent" as const),
      cents: fc.option(cents, { nil: undefined }),
      currency: fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ by: fc.constant("owner" as const), cents, currency: fc.constantFrom(...CURRENCIES) }) },
  { weight: 2, arbitrary: fc.record({ by: fc.constant("guardian" as const), pick: fc.nat(), approve: fc.boolean() }) },
);

/** Exact value scaled by 10^6 (no rounding to hide behind). */
const PRECISION = 1_000_000n;

describe("the seller mandate holds against any sequence of price and currency changes", () => {
  it("never leaves a product more than maxDiscountPercent below its reference without the guardian's approval", async () => {
    const rates = await loadRates(db);
    const value = (c: bigint, from: string, to: string) => (c * rateUnits(rates.get(to)!) * PRECISION) / rateUnits(rates.get(from)!);
    const toCentsStr = (c: number) => (c / 100).toFixed(2);

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 50 }),
        cents,
        fc.constantFrom(...CURRENCIES),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (maxPct, startCents, startCurrency, steps) => {
          const s = await freshStore(maxPct, toCentsStr(startCents), startCurrency);
          // The test's own model of the reference: the owner's last price or the last approved one.
          let ref = { cents: BigInt(startCents), currency: startCurrency as string };
          const pending: { id: string; cents: bigint; currency: string }[] = [];
          const read = async () => {
            const [p] = await db.select({ price: products.price, currency: products.currency }).from(products).where(eq(products.id, s.productId));
            return { cents: BigInt(Math.round(Number(p!.price) * 100)), currency: p!.currency };
          };
          for (const st of steps) {
            const before = await read();
            if (st.by === "owner") {
              await updateProduct(systemCtx(db, s.owner), s.productId, { price: st.cents / 100, currency: st.currency, moq: undefined });
              ref = { cents: BigInt(st.cents), currency: st.currency };
            } else if (st.by === "agent") {
              if (st.cents === undefined && st.currency === undefined) continue;
              const res = await updateProduct(systemCtx(db, s.agent), s.productId, {
                price: st.cents === undefined ? undefined : st.cents / 100,
                currency: st.currency,
                moq: undefined,
              });
              const after = await read();
              if ("pendingApproval" in res && res.pendingApproval) {
                // Held whole: nothing of price and currency moved.
                expect(after).toEqual(before);
                pending.push({
                  id: res.pendingApproval.id,
                  cents: st.cents === undefined ? before.cents : BigInt(st.cents),
                  currency: st.currency ?? before.currency,
                });
              }
            } else if (pending.length) {
              const [a] = pending.splice(st.pick % pending.length, 1);
              try {
                await decideApproval(db, s.owner.user.id, a!.id, st.approve ? "approved" : "rejected");
                if (st.approve) ref = { cents: a!.cents, currency: a!.currency };
              } catch (err) {
                // Asked against a price that has changed since: refused, nothing applied.
                expect(err).toMatchObject({ code: "invalid_state" });
                expect(await read()).toEqual(before);
              }
            }
            // The invariant, after every step: the price in the reference currency (the rule rounds
            // the conversion to the cent once) is at most maxPct below the reference.
            const now = await read();
            const inRef = value(now.cents, now.currency, ref.currency) + PRECISION / 2n;
            const floor = (ref.cents * PRECISION * BigInt(100 - maxPct)) / 100n;
            expect(inRef >= floor, `${now.cents} ${now.currency} vs reference ${ref.cents} ${ref.currency} at ${maxPct}%`).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
