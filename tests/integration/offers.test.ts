// Deals (contract 9.4) over HTTP: a requirement, quotes from two stores compared in the requirement's
// currency, counter-offers, acceptance into an order at the agreed terms; declines, supersession,
// expiry, exactly-once acceptance, outsiders; AI accounts under the mandate; the MCP tools.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login, someCategory } from "../support/api";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Offer = {
  id: string;
  threadId: string;
  from: string;
  status: string;
  unitPrice: number;
  quantity: number;
  currency: string;
  total: number;
  awaitingYou: boolean;
};
type Order = { id: string; status: string; unitPrice: number; quantity: number; currency: string; total: number; offerId: string | null };
type Answer = { offer: Offer; order?: Order; pendingApproval?: { id: string } };
type Comparison = { currency: string; quotes: { store: { id: string }; offer: Offer | null; converted: { unitPrice: number; total: number } | null }[] };

async function buyer() {
  const u = await createUser("BUYER");
  return { user: u, token: await login(u.username, u.password) };
}

async function requirement(token: string, extra: Record<string, unknown> = {}) {
  const res = await api<{ requirement: { id: string } }>("/api/buyer/requirements", {
    token,
    json: { title: "5,000 USB-C LED desk lamps", budget: 60000, currency: "EUR", quantity: 5000, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body.requirement.id;
}

const quote = (token: string, reqId: string, json: Record<string, unknown>) => api<Answer>(`/api/requirements/${reqId}/quotes`, { token, json });
const post = (token: string, path: string, json?: Record<string, unknown>) => api<Answer>(path, { method: "POST", token, ...(json ? { json } : {}) });
const getOffer = (token: string, id: string) => api<{ offer: Offer; thread: { offers: Offer[] } }>(`/api/offers/${id}`, { token });

describe("offers between people", () => {
  it("quote, compare converted, counter, counter back, accept: an order at the agreed terms, seen by both", async () => {
    const { leaf, parent } = await someCategory();
    const b = await buyer();
    const reqId = await requirement(b.token, { categoryId: leaf.id });
    const [a, z] = [await createSeller(), await createSeller()];
    const pa = await createProduct(a.token, { price: 12.5, currency: "USD", moq: 100 });
    const pz = await createProduct(z.token, { price: 11, currency: "EUR" });

    // The board: by parent category, currency and budget (converted: 60,000 EUR is about 62,466 USD).
    const board = (q: string) => api<{ requirements: { id: string }[] }>(`/api/requirements?${q}`, { token: a.token });
    expect((await board(`category=${parent.id}&currency=EUR`)).body.requirements.map((r) => r.id)).toContain(reqId);
    expect((await board(`minBudget=62000&maxBudget=63000&q=desk%20lamps`)).body.requirements.map((r) => r.id)).toContain(reqId);
    expect((await board(`minBudget=63000&q=desk%20lamps`)).body.requirements.map((r) => r.id)).not.toContain(reqId);
    expect((await board(`currency=JPY&q=desk%20lamps`)).body.requirements.map((r) => r.id)).not.toContain(reqId);

    const qa = await quote(a.token, reqId, { unitPrice: 11.8, currency: "USD", quantity: 5000, productId: pa.id, message: "CE certified" });
    expect(qa.status).toBe(201);
    expect(qa.body.offer).toMatchObject({ from: "seller", status: "open", unitPrice: 11.8, quantity: 5000, currency: "USD", total: 59000 });
    const qz1 = await quote(z.token, reqId, { unitPrice: 11.2, currency: "EUR", quantity: 5000, productId: pz.id });
    const qz = await quote(z.token, reqId, { unitPrice: 10.9, currency: "EUR", quantity: 5000, productId: pz.id });
    expect(qz.body.offer.threadId).toBe(qz1.body.offer.threadId);
    expect((await getOffer(z.token, qz1.body.offer.id)).body.offer.status).toBe("superseded");
    // Another store's product cannot be quoted; nor a quote in the past or too far ahead.
    expect((await quote(a.token, reqId, { unitPrice: 1, currency: "USD", quantity: 1, productId: pz.id })).status).toBe(404);
    expect((await quote(a.token, reqId, { unitPrice: 1, currency: "USD", quantity: 1, validUntil: "2020-01-01T00:00:00Z" })).status).toBe(400);
    const far = new Date(Date.now() + 100 * 86_400_000).toISOString();
    expect((await quote(a.token, reqId, { unitPrice: 1, currency: "USD", quantity: 1, validUntil: far })).status).toBe(400);
    // A buyer cannot quote on its own requirement (it has no store), nor on anyone's.
    expect((await quote(b.token, reqId, { unitPrice: 1, currency: "USD", quantity: 1 })).status).toBe(409);

    const cmp = await api<Comparison>(`/api/buyer/requirements/${reqId}/quotes`, { token: b.token });
    expect(cmp.status).toBe(200);
    expect(cmp.body.currency).toBe("EUR");
    const byStore = new Map(cmp.body.quotes.map((x) => [x.store.id, x]));
    expect(byStore.get(z.storeId)!.converted).toEqual({ unitPrice: 10.9, total: 54500 });
    expect(byStore.get(a.storeId)!.offer!.id).toBe(qa.body.offer.id);
    expect(byStore.get(a.storeId)!.converted!.unitPrice).toBeCloseTo(11.8 * 0.960523, 2);

    // Outsiders: 404 everywhere.
    const stranger = await buyer();
    const other = await createSeller();
    expect((await api(`/api/buyer/requirements/${reqId}/quotes`, { token: stranger.token })).status).toBe(404);
    expect((await api(`/api/buyer/requirements/${reqId}/quotes`, { token: a.token })).status).toBe(404);
    for (const t of [stranger.token, other.token, z.token]) expect((await getOffer(t, qa.body.offer.id)).status).toBe(404);
    expect((await post(stranger.token, `/api/offers/${qa.body.offer.id}/accept`)).status).toBe(404);
    expect((await post(other.token, `/api/offers/${qa.body.offer.id}/counter`, { unitPrice: 1, quantity: 1 })).status).toBe(404);

    // The store cannot answer its own offer; the buyer counters it.
    expect((await post(a.token, `/api/offers/${qa.body.offer.id}/counter`, { unitPrice: 12, quantity: 5000 })).status).toBe(403);
    const c1 = await post(b.token, `/api/offers/${qa.body.offer.id}/counter`, { unitPrice: 11, quantity: 6000, message: "6,000 at 11.00?" });
    expect(c1.status).toBe(201);
    expect(c1.body.offer).toMatchObject({ from: "buyer", status: "open", currency: "USD", productId: pa.id });
    expect((await post(b.token, `/api/offers/${qa.body.offer.id}/counter`, { unitPrice: 10, quantity: 6000 })).body).toMatchObject({ code: "invalid_state" });
    expect((await post(b.token, `/api/offers/${c1.body.offer.id}/accept`)).status).toBe(403);
    const inbox = await api<{ offers: Offer[] }>("/api/offers?as=seller&status=open", { token: a.token });
    expect(inbox.body.offers.find((o) => o.id === c1.body.offer.id)).toMatchObject({ awaitingYou: true });

    const c2 = await post(a.token, `/api/offers/${c1.body.offer.id}/counter`, { unitPrice: 11.4, quantity: 6000 });
    expect(c2.status).toBe(201);
    const accepted = await post(b.token, `/api/offers/${c2.body.offer.id}/accept`);
    expect(accepted.status).toBe(201);
    expect(accepted.body.offer.status).toBe("accepted");
    expect(accepted.body.order).toMatchObject({ status: "placed", unitPrice: 11.4, quantity: 6000, currency: "USD", total: 68400, offerId: c2.body.offer.id });
    const orderId = accepted.body.order!.id;
    expect((await api<{ order: Order }>(`/api/orders/${orderId}`, { token: a.token })).body.order).toMatchObject({
      offerId: c2.body.offer.id,
      unitPrice: 11.4,
    });
    expect((await api<{ order: Order }>(`/api/orders/${orderId}`, { token: b.token })).body.order.total).toBe(68400);
    expect((await post(b.token, `/api/offers/${c2.body.offer.id}/accept`)).body).toMatchObject({ code: "invalid_state" });

    const thread = await getOffer(a.token, c2.body.offer.id);
    expect(thread.body.thread.offers.map((o) => o.status)).toEqual(["superseded", "superseded", "accepted"]);

    // The other store's quote: declined once.
    const declined = await post(b.token, `/api/offers/${qz.body.offer.id}/decline`);
    expect(declined.status).toBe(200);
    expect(declined.body.offer.status).toBe("declined");
    expect((await post(b.token, `/api/offers/${qz.body.offer.id}/decline`)).status).toBe(409);
  });

  it("two concurrent acceptances place one order", async () => {
    const b = await buyer();
    const s = await createSeller();
    const p = await createProduct(s.token, { price: 5 });
    const q = await quote(s.token, await requirement(b.token), { unitPrice: 4.5, currency: "USD", quantity: 10, productId: p.id });
    const both = await Promise.all([1, 2].map(() => post(b.token, `/api/offers/${q.body.offer.id}/accept`)));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const mine = await api<{ orders: Order[] }>("/api/orders?as=buyer", { token: b.token });
    expect(mine.body.orders.filter((o) => o.offerId === q.body.offer.id)).toHaveLength(1);
  });

  it("an expired offer cannot be accepted; a quote without a product cannot be ordered", async () => {
    const b = await buyer();
    const s = await createSeller();
    const p = await createProduct(s.token, { price: 5 });
    const reqId = await requirement(b.token);
    const validUntil = new Date(Date.now() + 3000);
    const q = await quote(s.token, reqId, { unitPrice: 4, currency: "USD", quantity: 10, productId: p.id, validUntil: validUntil.toISOString() });
    expect(q.status).toBe(201);
    while (Date.now() <= validUntil.getTime() + 50) await new Promise((r) => setTimeout(r, 100));
    expect((await post(b.token, `/api/offers/${q.body.offer.id}/accept`)).body).toMatchObject({ status: 409, code: "offer_expired" });
    expect((await getOffer(b.token, q.body.offer.id)).body.offer.status).toBe("expired");

    const bare = await quote(s.token, reqId, { unitPrice: 4, currency: "USD", quantity: 10, message: "Any model you like" });
    expect((await post(b.token, `/api/offers/${bare.body.offer.id}/accept`)).body).toMatchObject({ status: 409, code: "offer_not_orderable" });
  });

  it("a reply to an inquiry with a quoted price is an offer the buyer can accept", async () => {
    const b = await buyer();
    const s = await createSeller();
    const p = await createProduct(s.token, { price: 12.5, moq: 500 });
    const inq = await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", { token: b.token, json: { productId: p.id, message: "Price for 100?" } });
    const reply = await api<{ inquiry: { replies: { offerId: string | null }[] } }>(`/api/seller/inquiries/${inq.body.inquiry.id}/respond`, {
      token: s.token,
      json: { message: "Quoted unit price US$11.80", quotedPrice: 11.8, quantity: 100 },
    });
    expect(reply.status).toBe(201);
    const open = await api<{ offers: (Offer & { thread: { inquiryId: string } })[] }>("/api/offers?as=buyer&status=open", { token: b.token });
    const offer = open.body.offers.find((o) => o.thread.inquiryId === inq.body.inquiry.id)!;
    expect(offer).toMatchObject({ unitPrice: 11.8, quantity: 100, currency: "USD", awaitingYou: true });
    // Both sides' inquiry views link the quoted reply to its thread; a reply without a price has none.
    expect(reply.body.inquiry.replies.map((r) => r.offerId)).toEqual([offer.id]);
    const asBuyer = await api<{ inquiries: { id: string; replies: { offerId: string | null }[] }[] }>("/api/buyer/inquiries", { token: b.token });
    expect(asBuyer.body.inquiries.find((i) => i.id === inq.body.inquiry.id)!.replies.map((r) => r.offerId)).toEqual([offer.id]);
    await api(`/api/seller/inquiries/${inq.body.inquiry.id}/respond`, { token: s.token, json: { message: "Samples ship Monday" } });
    const later = await api<{ inquiries: { id: string; replies: { offerId: string | null }[] }[] }>("/api/buyer/inquiries", { token: b.token });
    expect(later.body.inquiries.find((i) => i.id === inq.body.inquiry.id)!.replies.map((r) => r.offerId)).toEqual([offer.id, null]);
    const accepted = await post(b.token, `/api/offers/${offer.id}/accept`);
    expect(accepted.body.order).toMatchObject({ unitPrice: 11.8, quantity: 100, total: 1180, offerId: offer.id });
  });
});

describe("offers of AI accounts", () => {
  it("an AI seller's deep quote waits for its guardian, then reaches the buyer", async () => {
    const g = await createGuardianWithAi();
    const p = await createProduct(g.guardianToken, { price: 100 });
    const aiSeller = await login(g.aiSeller.username, g.aiPassword);
    const b = await buyer();
    const reqId = await requirement(b.token);
    const q = await quote(aiSeller, reqId, { unitPrice: 50, currency: "USD", quantity: 10, productId: p.id, message: "Half price", reason: "Clear stock" });
    expect(q.status).toBe(201);
    expect(q.body.offer).toMatchObject({ status: "pending_guardian_approval" });
    expect(q.body.pendingApproval).toBeDefined();
    expect((await getOffer(b.token, q.body.offer.id)).status).toBe(404);
    const cmp = await api<Comparison>(`/api/buyer/requirements/${reqId}/quotes`, { token: b.token });
    expect(cmp.body.quotes.map((x) => x.offer)).toEqual([null]);
    const approvals = await api<{ approvals: { id: string; summary: { quote?: { message: string; requirementId?: string } } }[] }>("/api/ai/approvals", {
      token: g.guardianToken,
    });
    expect(approvals.body.approvals.find((a) => a.id === q.body.pendingApproval!.id)!.summary.quote).toMatchObject({
      message: "Half price",
      requirementId: reqId,
    });
    expect((await post(g.guardianToken, `/api/ai/approvals/${q.body.pendingApproval!.id}/approve`)).status).toBe(200);
    expect((await getOffer(b.token, q.body.offer.id)).body.offer).toMatchObject({ status: "open", unitPrice: 50, awaitingYou: true });
  });

  it("an AI buyer's acceptance over its threshold waits for its guardian, then the order is placed", async () => {
    const g = await createGuardianWithAi();
    const aiBuyer = await login(g.aiBuyer.username, g.aiPassword);
    const s = await createSeller();
    const p = await createProduct(s.token, { price: 12 });
    const reqId = await requirement(aiBuyer);
    const q = await quote(s.token, reqId, { unitPrice: 10, currency: "USD", quantity: 600, productId: p.id });
    const held = await post(aiBuyer, `/api/offers/${q.body.offer.id}/accept`, { reason: "Cheapest of the quotes" });
    expect(held.status).toBe(201);
    expect(held.body.offer.status).toBe("pending_guardian_approval");
    expect(held.body.order).toMatchObject({ status: "pending_guardian_approval", total: 6000, offerId: q.body.offer.id });
    // The store learns nothing until the guardian decides.
    expect((await getOffer(s.token, q.body.offer.id)).body.offer.status).toBe("open");
    expect((await api(`/api/orders/${held.body.order!.id}`, { token: s.token })).status).toBe(404);
    expect((await post(g.guardianToken, `/api/ai/approvals/${held.body.pendingApproval!.id}/approve`)).status).toBe(200);
    expect((await getOffer(aiBuyer, q.body.offer.id)).body.offer.status).toBe("accepted");
    expect((await api<{ order: Order }>(`/api/orders/${held.body.order!.id}`, { token: s.token })).body.order).toMatchObject({
      status: "placed",
      unitPrice: 10,
    });
  });

  it("an AI buyer's rejected acceptance leaves the offer open again", async () => {
    const g = await createGuardianWithAi();
    const aiBuyer = await login(g.aiBuyer.username, g.aiPassword);
    const s = await createSeller();
    const p = await createProduct(s.token, { price: 12 });
    const q = await quote(s.token, await requirement(aiBuyer), { unitPrice: 10, currency: "USD", quantity: 600, productId: p.id });
    const held = await post(aiBuyer, `/api/offers/${q.body.offer.id}/accept`);
    expect((await post(g.guardianToken, `/api/ai/approvals/${held.body.pendingApproval!.id}/reject`)).status).toBe(200);
    expect((await getOffer(aiBuyer, q.body.offer.id)).body.offer).toMatchObject({ status: "open", awaitingYou: true });
  });
});

describe("offers through the MCP tools", () => {
  it("quote, list, counter, counter back, accept, decline", async () => {
    const b = await buyer();
    const s = await createSeller();
    const p = await createProduct(s.token, { price: 20 });
    const reqId = await requirement(b.token, { title: "MCP lamps" });
    const [sellerMcp, buyerMcp] = [await mcpClient((await createApiKey(s.token)).secret), await mcpClient((await createApiKey(b.token)).secret)];
    try {
      const tools = (await sellerMcp.listTools()).tools;
      expect(tools.find((t) => t.name === "accept_offer")!.inputSchema.required).toContain("offerId");
      const board = toolJson<{ requirements: { id: string }[] }>(await sellerMcp.callTool({ name: "list_requirements", arguments: { q: "MCP lamps" } }));
      expect(board.requirements.map((r) => r.id)).toContain(reqId);
      const call = async (c: typeof sellerMcp, name: string, args: Record<string, unknown>) => {
        const r = await c.callTool({ name, arguments: args });
        expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        return toolJson<Answer>(r);
      };
      const q = await call(sellerMcp, "quote_requirement", { requirementId: reqId, unitPrice: 18, currency: "USD", quantity: 50, productId: p.id });
      const listed = toolJson<{ offers: Offer[] }>(await buyerMcp.callTool({ name: "list_offers", arguments: { as: "buyer", status: "open" } }));
      expect(listed.offers.map((o) => o.id)).toContain(q.offer.id);
      const c1 = await call(buyerMcp, "counter_offer", { offerId: q.offer.id, unitPrice: 16, quantity: 60 });
      const c2 = await call(sellerMcp, "counter_offer", { offerId: c1.offer.id, unitPrice: 17, quantity: 60 });
      const accepted = await call(buyerMcp, "accept_offer", { offerId: c2.offer.id });
      expect(accepted.order).toMatchObject({ unitPrice: 17, quantity: 60, total: 1020, offerId: c2.offer.id });
      const other = await createSeller();
      const q2 = await quote(other.token, reqId, { unitPrice: 15, currency: "USD", quantity: 60 });
      expect((await call(buyerMcp, "decline_offer", { offerId: q2.body.offer.id })).offer.status).toBe("declined");
    } finally {
      await Promise.all([sellerMcp.close(), buyerMcp.close()]);
    }
  });
});
