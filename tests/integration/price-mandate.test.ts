// The guardian's mandate in real money, seller side (contract 9.2, issue #14 points 4, 5 and 7): each
// bypass the issue found, over REST and MCP, against the real server, and what the approval shows.
// The reference rates used are the seeded ones (JPY, IDR, EUR), read from GET /api/fx-rates.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createUser, login } from "../support/api";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Product = { id: string; price: number; currency: string; title: string };
type Updated = { product: Product & { pendingApproval?: { id: string; rule: string } } };
type Approval = { id: string; kind: string; status: string; subjectId: string; reason: string | null; summary: Record<string, unknown> };

/** A guardian's store with one product its owner priced, and the store's AI seller signed in. */
async function storeWithAgent(price: number, currency = "USD", mandate: Record<string, unknown> = {}) {
  const g = await createGuardianWithAi();
  if (Object.keys(mandate).length) {
    const res = await api("/api/ai/accounts", { method: "PATCH", token: g.guardianToken, json: { aiUserId: g.aiSeller.aiUserId, ...mandate } });
    expect(res.status, res.text).toBe(200);
  }
  const product = (await createProduct(g.guardianToken, { price, currency, moq: 1, keywords: ["lamp"] })) as unknown as Product;
  return { ...g, product, ai: await login(g.aiSeller.username, g.aiPassword) };
}

const put = (token: string, id: string, json: Record<string, unknown>) => api<Updated>(`/api/products/${id}`, { method: "PUT", token, json });
const publicProduct = async (id: string) => (await api<{ product: Product }>(`/api/products/${id}`)).body.product;
const approvals = async (token: string) => (await api<{ approvals: Approval[] }>("/api/ai/approvals?limit=100", { token })).body.approvals;
const decide = (token: string, id: string, d: "approve" | "reject") => api(`/api/ai/approvals/${id}/${d}`, { method: "POST", token });

describe("AI_SELLER price and currency changes measured against the reference price (REST)", () => {
  it("holds a switch to a cheaper currency whole: nothing changes, rejection leaves it exactly as it was, buyers pay the old price", async () => {
    const s = await storeWithAgent(100);
    const res = await put(s.ai, s.product.id, { price: 1, currency: "JPY", reason: "yen promo" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.product).toMatchObject({ price: 100, currency: "USD" });
    const approvalId = res.body.product.pendingApproval!.id;
    expect(await publicProduct(s.product.id)).toMatchObject({ price: 100, currency: "USD" });
    const [a] = await approvals(s.guardianToken);
    expect(a).toMatchObject({ id: approvalId, kind: "price", reason: "yen promo", subjectId: s.product.id });
    expect(a!.summary).toMatchObject({
      ruleCode: "discount",
      price: { old: { amount: 100, currency: "USD" }, new: { amount: 1, currency: "JPY" }, reference: { amount: 100, currency: "USD" } },
    });
    expect((await decide(s.guardianToken, approvalId, "reject")).status).toBe(200);
    expect(await publicProduct(s.product.id)).toMatchObject({ price: 100, currency: "USD" });
    const buyer = await createUser("BUYER");
    const order = await api<{ order: { total: number; currency: string } }>("/api/orders", {
      token: await login(buyer.username, buyer.password),
      json: { productId: s.product.id, quantity: 10 },
    });
    expect(order.body.order).toMatchObject({ total: 1000, currency: "USD" });
  });

  it("treats a currency change alone as a price change", async () => {
    const s = await storeWithAgent(250, "EUR");
    const res = await put(s.ai, s.product.id, { currency: "IDR" });
    expect(res.body.product).toMatchObject({
      price: 250,
      currency: "EUR",
      pendingApproval: { rule: expect.stringMatching(/below the reference price 250\.00 EUR/) },
    });
    // Into a dearer currency is no discount: applied at once.
    expect((await put(s.ai, s.product.id, { currency: "GBP" })).body.product).toMatchObject({ price: 250, currency: "GBP" });
  });

  it("measures every cut against the reference, not the agent's own last price: five cuts of 10% stop after the first", async () => {
    const s = await storeWithAgent(1000);
    let price = 1000;
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      price = Math.round(price * 90) / 100;
      const res = await put(s.ai, s.product.id, { price });
      seen.push(res.body.product.price);
    }
    expect(seen).toEqual([900, 900, 900, 900, 900]);
    expect((await approvals(s.guardianToken)).filter((a) => a.status === "pending")).toHaveLength(4);
    // A raise by the agent does not lift the reference either; a person's price does.
    await put(s.ai, s.product.id, { price: 2000 });
    expect((await put(s.ai, s.product.id, { price: 890 })).body.product.price).toBe(2000);
    await put(s.guardianToken, s.product.id, { price: 500 });
    expect((await put(s.ai, s.product.id, { price: 450 })).body.product.price).toBe(450);
    expect((await put(s.ai, s.product.id, { price: 449.99 })).body.product.price).toBe(450);
  });

  it("applies an approved change only over the price it was asked against, and makes it the reference", async () => {
    const s = await storeWithAgent(100);
    const first = (await put(s.ai, s.product.id, { price: 60 })).body.product.pendingApproval!.id;
    const second = (await put(s.ai, s.product.id, { price: 50, currency: "USD" })).body.product.pendingApproval!.id;
    expect((await decide(s.guardianToken, first, "approve")).status).toBe(200);
    expect(await publicProduct(s.product.id)).toMatchObject({ price: 60, currency: "USD" });
    // The second was asked against 100: the product moved on, so approving it is refused and it stays pending.
    const stale = await decide(s.guardianToken, second, "approve");
    expect(stale.status).toBe(409);
    expect(JSON.parse(stale.text)).toMatchObject({ code: "invalid_state" });
    expect((await approvals(s.guardianToken)).find((a) => a.id === second)?.status).toBe("pending");
    expect(await publicProduct(s.product.id)).toMatchObject({ price: 60 });
    // 60 is the reference now: 54 is within 10% of it.
    expect((await put(s.ai, s.product.id, { price: 54 })).body.product.price).toBe(54);
  });

  it("refuses a currency without a reference rate (400 naming the field) and changes nothing", async () => {
    const s = await storeWithAgent(100);
    const res = await put(s.ai, s.product.id, { currency: "XAU", title: "Renamed" });
    expect(res.status, res.text).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: "validation_failed", errors: [expect.objectContaining({ path: "currency" })] });
    expect(await publicProduct(s.product.id)).toMatchObject({ price: 100, currency: "USD", title: s.product.title });
  });
});

describe("quotes measured against the reference in one currency", () => {
  it("holds a quote in a cheaper currency and shows the guardian the inquiry and the quote's text", async () => {
    const s = await storeWithAgent(100);
    const buyer = await createUser("BUYER");
    const buyerToken = await login(buyer.username, buyer.password);
    const inquiry = await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", {
      token: buyerToken,
      json: { productId: s.product.id, message: "Price for 500 pieces?" },
    });
    expect(inquiry.status, inquiry.text).toBe(201);
    const id = inquiry.body.inquiry.id;
    const reply = await api<{ pendingApproval?: { id: string } }>(`/api/seller/inquiries/${id}/respond`, {
      token: s.ai,
      json: { message: "Special price: 100 per piece", quotedPrice: 100, currency: "JPY", reason: "volume" },
    });
    expect(reply.status, reply.text).toBe(201);
    const [a] = await approvals(s.guardianToken);
    expect(a).toMatchObject({ id: reply.body.pendingApproval!.id, kind: "quote", reason: "volume" });
    expect(a!.summary).toMatchObject({
      quote: { inquiryId: id, inquiryMessage: "Price for 500 pieces?", message: "Special price: 100 per piece" },
      price: { new: { amount: 100, currency: "JPY" }, reference: { amount: 100, currency: "USD" } },
      counterparty: { name: buyer.username },
    });
    // The buyer does not see it, before or after the rejection.
    const seen = async () => (await api<{ inquiries: { id: string; replies: unknown[] }[] }>("/api/buyer/inquiries", { token: buyerToken })).body.inquiries;
    expect((await seen()).find((i) => i.id === id)?.replies).toEqual([]);
    await decide(s.guardianToken, a!.id, "reject");
    expect((await seen()).find((i) => i.id === id)?.replies).toEqual([]);
    // A quote within the mandate in euros (converted, 95 USD is 5% off) goes out at once.
    const eur = (await api<{ rates: Record<string, number> }>("/api/fx-rates")).body.rates.EUR!;
    const within = Math.round(95 * eur * 100) / 100;
    const ok = await api<{ pendingApproval?: unknown }>(`/api/seller/inquiries/${id}/respond`, {
      token: s.ai,
      json: { message: "In euros", quotedPrice: within, currency: "EUR" },
    });
    expect(ok.body.pendingApproval).toBeUndefined();
    expect((await seen()).find((i) => i.id === id)?.replies).toHaveLength(1);
  });
});

describe("the same bypasses through MCP", () => {
  it("update_product: a currency switch alone is held and the product keeps its price and currency", async () => {
    const s = await storeWithAgent(250, "EUR");
    const client = await mcpClient((await createApiKey(s.ai)).secret);
    try {
      const r = toolJson<Updated>(await client.callTool({ name: "update_product", arguments: { productId: s.product.id, currency: "IDR" } }));
      expect(r.product).toMatchObject({ price: 250, currency: "EUR", pendingApproval: { id: expect.any(String) } });
      const cut = toolJson<Updated>(await client.callTool({ name: "update_product", arguments: { productId: s.product.id, price: 1, currency: "JPY" } }));
      expect(cut.product.pendingApproval).toBeDefined();
      expect(await publicProduct(s.product.id)).toMatchObject({ price: 250, currency: "EUR" });
    } finally {
      await client.close();
    }
  });
});

describe("rejected and expired orders never reach the store", () => {
  it("a rejected order is not in the store's list, not readable by id, and not counted in its analytics", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const seller = await createUser("SELLER", { companyName: "Lamp Works" });
    const sellerToken = await login(seller.username, seller.password);
    const p = (await createProduct(sellerToken, { price: 6000, moq: 1 })) as unknown as Product;
    const held = await api<{ order: { id: string }; pendingApproval: { id: string } }>("/api/orders", { token: ai, json: { productId: p.id, quantity: 1 } });
    expect(held.status, held.text).toBe(201);
    const [a] = await approvals(g.guardianToken);
    expect(a!.summary).toMatchObject({ ruleCode: "threshold", converted: { amount: 6000, currency: "USD" }, counterparty: { name: "Lamp Works" } });
    await decide(g.guardianToken, held.body.pendingApproval.id, "reject");
    const list = await api<{ orders: unknown[]; total: number }>("/api/orders?as=seller", { token: sellerToken });
    expect(list.body).toMatchObject({ orders: [], total: 0 });
    expect((await api(`/api/orders/${held.body.order.id}`, { token: sellerToken })).status).toBe(404);
    // The agent itself still reads its own rejected order.
    expect((await api<{ order: { status: string } }>(`/api/orders/${held.body.order.id}`, { token: ai })).body.order.status).toBe("rejected");
    const stats = await api<{ ordersByStatus: Record<string, number> }>("/api/seller/dashboard", { token: sellerToken });
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.ordersByStatus).toMatchObject({ placed: 0, rejected: 0 });
  });
});
