// The guardian's mandate in real money, buyer side (contract 9.2, issue #14 points 3 and 7): each
// bypass the issue found, over REST and MCP, against the real server. Amounts leave wide margins
// around the seeded reference rates (no test sets EUR, GBP, CHF or CNY on the shared server).
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Order = { id: string; status: string; total: number; currency: string };
type Placed = { order: Order; pendingApproval?: { id: string; rule: string } };
type Problem = { code: string; detail: string; errors?: { path: string; message: string }[] };

async function agent(mandate: Record<string, unknown> = {}) {
  const g = await createGuardianWithAi();
  if (Object.keys(mandate).length) {
    const res = await api("/api/ai/accounts", { method: "PATCH", token: g.guardianToken, json: { aiUserId: g.aiBuyer.aiUserId, ...mandate } });
    expect(res.status, res.text).toBe(200);
  }
  return { ...g, ai: await login(g.aiBuyer.username, g.aiPassword) };
}

/** A store selling one product at `price` `currency` (minimum order 1). */
async function store(price: number, currency = "USD") {
  const seller = await createSeller();
  return { seller, product: await createProduct(seller.token, { price, currency, moq: 1 }) };
}

async function order(token: string, productId: string, quantity = 1) {
  const res = await api<Placed>("/api/orders", { token, json: { productId, quantity } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("orders held by the mandate in real money (REST)", () => {
  it("catches splitting: three orders of 5,000 to one store within 24 hours, the second and third held", async () => {
    const a = await agent();
    const s = await store(5000);
    const first = await order(a.ai, s.product.id);
    expect(first.order.status).toBe("placed");
    const second = await order(a.ai, s.product.id);
    const third = await order(a.ai, s.product.id);
    for (const held of [second, third]) {
      expect(held.order.status).toBe("pending_guardian_approval");
      expect(held.pendingApproval?.rule).toMatch(/other orders to the same store in the last 24 hours/);
    }
    expect(third.pendingApproval?.rule).toMatch(/comes to 15000\.00 USD, past the approval threshold of 5000\.00 USD/);
    // Held orders stay invisible to the store; the one placed is all it sees.
    const seen = await api<{ orders: Order[] }>("/api/orders?as=seller", { token: s.seller.token });
    expect(seen.body.orders.map((o) => o.id)).toEqual([first.order.id]);
    const queue = await api<{ approvals: { subjectId: string }[] }>("/api/ai/approvals?status=pending", { token: a.guardianToken });
    expect(queue.body.approvals.map((x) => x.subjectId).sort()).toEqual([second.order.id, third.order.id].sort());
  });

  it("checks concurrent orders of one agent one after the other: of four at once, at most one is placed", async () => {
    const a = await agent();
    const s = await store(3000);
    const all = await Promise.all([1, 2, 3, 4].map(() => order(a.ai, s.product.id)));
    expect(all.filter((x) => x.order.status === "placed").length).toBeLessThanOrEqual(1);
  });

  it("holds one order over the threshold in another currency by its converted total", async () => {
    const a = await agent({ orderApprovalThreshold: 1000 });
    const s = await store(950, "GBP"); // about 1,200 USD: under the number, over the money
    const held = await order(a.ai, s.product.id);
    expect(held.order.status).toBe("pending_guardian_approval");
    expect(held.pendingApproval?.rule).toMatch(/^total 950\.00 GBP \(\d+\.\d\d USD\) exceeds the approval threshold of 1000\.00 USD$/);
  });

  it("does not count another store for the 24 hours, but counts it for the month", async () => {
    const a = await agent({ orderApprovalThreshold: 5000, monthlyBudget: 12000 });
    const storeA = await store(5000);
    const storeB = await store(5000);
    const storeC = await store(2500);
    expect((await order(a.ai, storeA.product.id)).order.status).toBe("placed");
    expect((await order(a.ai, storeB.product.id)).order.status).toBe("placed");
    const third = await order(a.ai, storeC.product.id);
    expect(third.order.status).toBe("pending_guardian_approval");
    expect(third.pendingApproval?.rule).toMatch(/this month's spend to 12500\.00 USD/);
    expect(third.pendingApproval?.rule).toMatch(/past the monthly budget of 12000\.00 USD/);
  });

  it("sums the month's budget across EUR, GBP and CHF converted, naming both amounts", async () => {
    const a = await agent({ monthlyBudget: 1000 });
    const eur = await store(900, "EUR");
    const gbp = await store(900, "GBP");
    const chf = await store(900, "CHF");
    const first = await order(a.ai, eur.product.id);
    // 900 EUR is about 940 USD at the reference rates: within 1,000 USD alone.
    expect(first.order.status).toBe("placed");
    for (const [s, code] of [
      [gbp, "GBP"],
      [chf, "CHF"],
    ] as const) {
      const held = await order(a.ai, s.product.id);
      expect(held.order.status, code).toBe("pending_guardian_approval");
      expect(held.pendingApproval?.rule).toMatch(
        new RegExp(`^total 900\\.00 ${code} \\(\\d+\\.\\d\\d USD\\) would bring this month's spend to \\d+\\.\\d\\d USD`),
      );
    }
  });

  it("weighs orders in USD and CNY against a budget in EUR", async () => {
    const a = await agent({ mandateCurrency: "EUR", orderApprovalThreshold: 5000, monthlyBudget: 2000 });
    const usd = await store(1000);
    const cny = await store(9000, "CNY"); // about 1,240 USD; with 1,000 USD about 2,150 EUR
    expect((await order(a.ai, usd.product.id)).order.status).toBe("placed");
    const held = await order(a.ai, cny.product.id);
    expect(held.order.status).toBe("pending_guardian_approval");
    expect(held.pendingApproval?.rule).toMatch(/^total 9000\.00 CNY \(\d+\.\d\d EUR\) .* past the monthly budget of 2000\.00 EUR$/);
  });

  it("refuses an AI order in a currency without a reference rate, saying why; a human may still order", async () => {
    const a = await agent();
    const s = await store(10, "KPW");
    const res = await api<Problem>("/api/orders", { token: a.ai, json: { productId: s.product.id, quantity: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.detail).toMatch(/No reference exchange rate for KPW/);
    expect(res.body.errors?.[0]?.path).toBe("currency");
    const human = await createUser("BUYER");
    const placed = await api<Placed>("/api/orders", { token: await login(human.username, human.password), json: { productId: s.product.id, quantity: 1 } });
    expect(placed.body.order.status).toBe("placed");
  });
});

describe("PATCH /api/ai/accounts: the mandate", () => {
  it("sets and shows mandateCurrency with the amounts; validates every field", async () => {
    const g = await createGuardianWithAi();
    const patch = (json: Record<string, unknown>) =>
      api<{ account: Record<string, unknown> } & Problem>("/api/ai/accounts", {
        method: "PATCH",
        token: g.guardianToken,
        json: { aiUserId: g.aiBuyer.aiUserId, ...json },
      });
    const listed = await api<{ accounts: Record<string, unknown>[] }>("/api/ai/accounts", { token: g.guardianToken });
    expect(listed.body.accounts.find((x) => x.aiUserId === g.aiBuyer.aiUserId)).toMatchObject({ mandateCurrency: "USD", orderApprovalThreshold: 5000 });
    const ok = await patch({ mandateCurrency: "eur", orderApprovalThreshold: 2000, monthlyBudget: 2000 });
    expect(ok.status).toBe(200);
    expect(ok.body.account).toMatchObject({ mandateCurrency: "EUR", orderApprovalThreshold: 2000, monthlyBudget: 2000 });
    for (const [json, path] of [
      [{ mandateCurrency: "ABC" }, "mandateCurrency"],
      [{ mandateCurrency: "XAU" }, "mandateCurrency"],
      [{ mandateCurrency: "KPW" }, "mandateCurrency"], // ISO 4217, but no reference rate
      [{ orderApprovalThreshold: -1 }, "orderApprovalThreshold"],
      [{ monthlyBudget: -0.01 }, "monthlyBudget"],
      [{ maxDiscountPercent: -5 }, "maxDiscountPercent"],
    ] as const) {
      const res = await patch(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors?.map((e) => e.path)).toContain(path);
    }
    // A refused patch changed nothing.
    const after = await api<{ accounts: Record<string, unknown>[] }>("/api/ai/accounts", { token: g.guardianToken });
    expect(after.body.accounts.find((x) => x.aiUserId === g.aiBuyer.aiUserId)).toMatchObject({ mandateCurrency: "EUR", orderApprovalThreshold: 2000 });
  });
});

describe("the mandate over MCP", () => {
  it("place_order: split orders to one store are held like over REST", async () => {
    const a = await agent();
    const s = await store(3000);
    const client = await mcpClient((await createApiKey(a.ai)).secret);
    try {
      const place = async () => toolJson<Placed>(await client.callTool({ name: "place_order", arguments: { productId: s.product.id, quantity: 1 } }));
      const first = await place();
      expect(first.order.status, JSON.stringify(first)).toBe("placed");
      const second = await place();
      expect(second.order.id).not.toBe(first.order.id);
      expect(second.order.status).toBe("pending_guardian_approval");
      expect(second.pendingApproval?.rule).toMatch(/comes to 6000\.00 USD, past the approval threshold of 5000\.00 USD/);
    } finally {
      await client.close();
    }
  });
});
