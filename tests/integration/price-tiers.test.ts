// Quantity price breaks (contract 9.4, issue #15 point 2) over REST and MCP against the real server:
// validation with exact paths, the unit price an order pays, and the discount rule (9.2) over every tier.
import { describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createSeller, createUser, login, someCategory, unique } from "../support/api";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Tier = { minQty: number; unitPrice: number };
type Product = { id: string; price: number; currency: string; moq: number; priceTiers: Tier[]; pendingApproval?: { id: string; rule: string } };
type Approval = { id: string; kind: string; status: string; subjectId: string; summary: Record<string, unknown> };
type Order = { unitPrice: number; total: number; currency: string; quantity: number; status: string };

const TIERS: Tier[] = [
  { minQty: 500, unitPrice: 11.8 },
  { minQty: 2000, unitPrice: 10.9 },
];

async function create(token: string, body: Record<string, unknown>) {
  const { leaf } = await someCategory();
  return api<{ product: Product }>("/api/products", {
    token,
    json: { title: `Lamp ${unique()}`, price: 12.5, currency: "USD", category: leaf.id, moq: 100, keywords: ["lamp"], ...body },
  });
}
const put = (token: string, id: string, json: Record<string, unknown>) => api<{ product: Product }>(`/api/products/${id}`, { method: "PUT", token, json });
const shown = async (id: string) => (await api<{ product: Product }>(`/api/products/${id}`)).body.product;
const paths = (text: string) => (JSON.parse(text) as { code: string; errors: { path: string }[] }).errors.map((e) => e.path);
const approvals = async (token: string) => (await api<{ approvals: Approval[] }>("/api/ai/approvals?limit=100", { token })).body.approvals;
const decide = (token: string, id: string, d: "approve" | "reject") => api(`/api/ai/approvals/${id}/${d}`, { method: "POST", token });

async function buyer() {
  const b = await createUser("BUYER");
  return login(b.username, b.password);
}
const order = (token: string, productId: string, quantity: number) => api<{ order: Order }>("/api/orders", { token, json: { productId, quantity } });

/** A guardian's store with a product its owner priced at 100 USD (moq 10), and the store's AI seller signed in. */
async function storeWithAgent(tiers: Tier[] = []) {
  const g = await createGuardianWithAi();
  const res = await create(g.guardianToken, { price: 100, moq: 10, priceTiers: tiers });
  expect(res.status, res.text).toBe(201);
  return { ...g, product: res.body.product, ai: await login(g.aiSeller.username, g.aiPassword) };
}

describe("priceTiers on create and update (REST)", () => {
  it("stores tiers on create, shows them on every answer, and refuses tiers out of order naming the path", async () => {
    const s = await createSeller();
    const ok = await create(s.token, { priceTiers: TIERS });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.product.priceTiers).toEqual(TIERS);
    expect((await shown(ok.body.product.id)).priceTiers).toEqual(TIERS);
    const list = await api<{ products: Product[] }>(`/api/products?sellerId=${s.storeId}`);
    expect(list.body.products.find((p) => p.id === ok.body.product.id)?.priceTiers).toEqual(TIERS);
    expect((await create(s.token, {})).body.product.priceTiers).toEqual([]);

    const cases: [Tier[], string[]][] = [
      [[{ minQty: 100, unitPrice: 11 }], ["priceTiers.0.minQty"]],
      [[{ minQty: 500, unitPrice: 12.5 }], ["priceTiers.0.unitPrice"]],
      [
        [
          { minQty: 500, unitPrice: 11.8 },
          { minQty: 400, unitPrice: 11.8 },
        ],
        ["priceTiers.1.minQty", "priceTiers.1.unitPrice"],
      ],
      [[{ minQty: 500, unitPrice: 11.555 }], ["priceTiers.0.unitPrice"]],
      [Array.from({ length: 11 }, (_, i) => ({ minQty: 200 + i, unitPrice: 12 - i / 10 })), ["priceTiers"]],
    ];
    for (const [tiers, want] of cases) {
      const res = await create(s.token, { priceTiers: tiers });
      expect(res.status, res.text).toBe(400);
      expect(JSON.parse(res.text).code).toBe("validation_failed");
      expect(paths(res.text)).toEqual(want);
    }
  });

  it("checks an update against the product as it would be: a new price or moq alone must leave the tiers valid; [] removes them", async () => {
    const s = await createSeller();
    const p = (await create(s.token, { priceTiers: TIERS })).body.product;
    const cheaper = await put(s.token, p.id, { price: 11.8 });
    expect(cheaper.status, cheaper.text).toBe(400);
    expect(paths(cheaper.text)).toEqual(["priceTiers.0.unitPrice"]);
    const bigMoq = await put(s.token, p.id, { minOrderQty: 2000 });
    expect(bigMoq.status, bigMoq.text).toBe(400);
    expect(paths(bigMoq.text)).toEqual(["priceTiers.0.minQty"]);
    const swapped = await put(s.token, p.id, { priceTiers: [{ minQty: 500, unitPrice: 13 }] });
    expect(paths(swapped.text)).toEqual(["priceTiers.0.unitPrice"]);
    expect(await shown(p.id)).toMatchObject({ price: 12.5, moq: 100, priceTiers: TIERS });
    // Price and tiers together, each checked against the other.
    const both = await put(s.token, p.id, { price: 20, priceTiers: [{ minQty: 150, unitPrice: 19.99 }] });
    expect(both.status, both.text).toBe(200);
    expect(both.body.product).toMatchObject({ price: 20, priceTiers: [{ minQty: 150, unitPrice: 19.99 }] });
    expect((await put(s.token, p.id, { priceTiers: [] })).body.product.priceTiers).toEqual([]);
    expect((await put(s.token, p.id, { moq: 5000 })).status).toBe(200);
  });
});

describe("the product page", () => {
  it("shows the volume pricing table in the visitor's language, and no table without tiers", async () => {
    const s = await createSeller();
    const p = (await create(s.token, { priceTiers: TIERS })).body.product;
    const page = await fetch(`${baseUrl()}/de/products/${p.id}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="volume-pricing"');
    expect(html).toContain("Staffelpreise");
    // de formats: 100 – 499 at 12,50; 500 – 1.999 at 11,80; from 2.000 at 10,90.
    for (const text of ["100 bis 499", "500 bis 1.999", "ab 2.000", "12,50", "11,80", "10,90"]) expect(html).toContain(text);
    const plain = (await create(s.token, {})).body.product;
    expect(await (await fetch(`${baseUrl()}/de/products/${plain.id}`)).text()).not.toContain('data-testid="volume-pricing"');
  });
});

describe("orders pay the tier for their quantity", () => {
  it("at the moq, at a tier's minQty, between tiers and above the last", async () => {
    const s = await createSeller();
    const p = (await create(s.token, { priceTiers: TIERS })).body.product;
    const token = await buyer();
    const cases: [number, number, number][] = [
      [100, 12.5, 1250],
      [499, 12.5, 6237.5],
      [500, 11.8, 5900],
      [1999, 11.8, 23588.2],
      [2000, 10.9, 21800],
      [3001, 10.9, 32710.9],
    ];
    for (const [quantity, unitPrice, total] of cases) {
      const res = await order(token, p.id, quantity);
      expect(res.status, res.text).toBe(201);
      expect(res.body.order).toMatchObject({ quantity, unitPrice, total, currency: "USD" });
    }
  });
});

describe("the discount rule covers every tier (AI_SELLER)", () => {
  it("holds a deep tier whole: nothing of price, currency or tiers applies; rejection leaves the product as it was", async () => {
    const s = await storeWithAgent();
    const res = await put(s.ai, s.product.id, { price: 95, priceTiers: [{ minQty: 50, unitPrice: 80 }], title: "Renamed lamp" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.product).toMatchObject({ price: 100, currency: "USD", priceTiers: [], title: "Renamed lamp" });
    expect(res.body.product.pendingApproval!.rule).toMatch(/tier from 50/);
    expect(await shown(s.product.id)).toMatchObject({ price: 100, priceTiers: [] });
    const [a] = await approvals(s.guardianToken);
    expect(a).toMatchObject({ id: res.body.product.pendingApproval!.id, kind: "price", subjectId: s.product.id });
    expect(a!.summary).toMatchObject({
      ruleCode: "discount",
      ruleParams: { offered: "80.00", minQty: "50" },
      price: { old: { amount: 100, currency: "USD" }, new: { amount: 95, currency: "USD" }, reference: { amount: 100, currency: "USD" }, newInReference: 80 },
      tiers: { old: [], new: [{ minQty: 50, unitPrice: 80 }] },
    });
    expect((await decide(s.guardianToken, a!.id, "reject")).status).toBe(200);
    expect(await shown(s.product.id)).toMatchObject({ price: 100, currency: "USD", priceTiers: [] });
    // Buyers still pay the list price at any quantity.
    expect((await order(await buyer(), s.product.id, 60)).body.order).toMatchObject({ unitPrice: 100, total: 6000 });
    // Tiers within the mandate apply at once.
    const within = await put(s.ai, s.product.id, { priceTiers: [{ minQty: 50, unitPrice: 90 }] });
    expect(within.body.product).toMatchObject({ priceTiers: [{ minQty: 50, unitPrice: 90 }] });
    expect(within.body.product.pendingApproval).toBeUndefined();
  });

  it("approval applies price, currency and tiers together; an approval asked against tiers that changed since is 409", async () => {
    const s = await storeWithAgent();
    const first = (await put(s.ai, s.product.id, { priceTiers: [{ minQty: 50, unitPrice: 70 }] })).body.product.pendingApproval!.id;
    const second = (await put(s.ai, s.product.id, { price: 99, priceTiers: [{ minQty: 20, unitPrice: 60 }] })).body.product.pendingApproval!.id;
    expect((await decide(s.guardianToken, first, "approve")).status).toBe(200);
    expect(await shown(s.product.id)).toMatchObject({ price: 100, priceTiers: [{ minQty: 50, unitPrice: 70 }] });
    const stale = await decide(s.guardianToken, second, "approve");
    expect(stale.status, stale.text).toBe(409);
    expect(JSON.parse(stale.text).code).toBe("invalid_state");
    expect((await approvals(s.guardianToken)).find((a) => a.id === second)?.status).toBe("pending");
    expect(await shown(s.product.id)).toMatchObject({ price: 100, priceTiers: [{ minQty: 50, unitPrice: 70 }] });
    expect((await order(await buyer(), s.product.id, 50)).body.order).toMatchObject({ unitPrice: 70, total: 3500 });
  });

  it("an agent's new product with a deep tier is created without it and the tiers wait for the guardian", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiSeller.username, g.aiPassword);
    const res = await create(ai, { price: 100, moq: 10, priceTiers: [{ minQty: 100, unitPrice: 50 }] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.product).toMatchObject({ price: 100, priceTiers: [], pendingApproval: { id: expect.any(String) } });
    expect((await decide(g.guardianToken, res.body.product.pendingApproval!.id, "approve")).status).toBe(200);
    expect((await shown(res.body.product.id)).priceTiers).toEqual([{ minQty: 100, unitPrice: 50 }]);
  });

  it("a person's tiers apply at once, however deep, and an agent leaving them alone is not held for them", async () => {
    const s = await storeWithAgent([{ minQty: 100, unitPrice: 40 }]);
    expect(s.product.priceTiers).toEqual([{ minQty: 100, unitPrice: 40 }]);
    const deeper = await put(s.guardianToken, s.product.id, { priceTiers: [{ minQty: 100, unitPrice: 30 }] });
    expect(deeper.body.product).toMatchObject({ priceTiers: [{ minQty: 100, unitPrice: 30 }] });
    expect(deeper.body.product.pendingApproval).toBeUndefined();
    const cut = await put(s.ai, s.product.id, { price: 95 });
    expect(cut.body.product).toMatchObject({ price: 95, priceTiers: [{ minQty: 100, unitPrice: 30 }] });
    expect(cut.body.product.pendingApproval).toBeUndefined();
    // A currency change makes every tier another amount: measured, and held.
    const yen = await put(s.ai, s.product.id, { currency: "JPY" });
    expect(yen.body.product).toMatchObject({ price: 95, currency: "USD", pendingApproval: { id: expect.any(String) } });
  });
});

describe("the same through MCP", () => {
  it("update_product with a deep tier is held for an AI seller; place_order pays the tier", async () => {
    const s = await storeWithAgent();
    const client = await mcpClient((await createApiKey(s.ai)).secret);
    try {
      const held = toolJson<{ product: Product }>(
        await client.callTool({ name: "update_product", arguments: { productId: s.product.id, priceTiers: [{ minQty: 20, unitPrice: 85 }] } }),
      );
      expect(held.product).toMatchObject({ price: 100, priceTiers: [], pendingApproval: { id: expect.any(String) } });
      const ok = toolJson<{ product: Product }>(
        await client.callTool({ name: "update_product", arguments: { productId: s.product.id, priceTiers: [{ minQty: 20, unitPrice: 92.5 }] } }),
      );
      expect(ok.product).toMatchObject({ priceTiers: [{ minQty: 20, unitPrice: 92.5 }] });
    } finally {
      await client.close();
    }
    const b = await createUser("BUYER");
    const buyerClient = await mcpClient((await createApiKey(await login(b.username, b.password))).secret);
    try {
      const r = toolJson<{ order: Order }>(await buyerClient.callTool({ name: "place_order", arguments: { productId: s.product.id, quantity: 20 } }));
      expect(r.order).toMatchObject({ quantity: 20, unitPrice: 92.5, total: 1850, status: "placed" });
    } finally {
      await buyerClient.close();
    }
  });
});
