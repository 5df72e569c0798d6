// An agent reads its own standing (contract 9.2, issue #14 point 6): GET /api/ai/me and the MCP tool
// get_my_mandate, with spend checked to the cent against the reference rates the server publishes,
// and the agent's own held items visible to it (not 404) while they stay hidden from everyone else.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Approval = { id: string; aiUserId: string; kind: string; subjectId: string; status: string };
type Store = { storeId: string; companyName: string; total: number; remainingBeforeApproval: number };
type Standing = {
  account: { aiUserId: string; username: string; role: string; disabled: boolean };
  guardian: { id: string; username: string };
  permissions: Record<string, boolean>;
  mandate: { mandateCurrency: string; orderApprovalThreshold: number; monthlyBudget: number | null; maxDiscountPercent: number };
  spend: {
    currency: string;
    month: { from: string; total: number; remaining: number | null };
    last24hByStore: Store[];
    unconverted: { currency: string; total: number }[];
  };
  approvals: { pending: number; items: Approval[] };
};
type Placed = { order: { id: string; status: string }; pendingApproval?: { id: string } };

const me = async (token: string) => {
  const res = await api<Standing>("/api/ai/me", { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** Rates are published as numbers with at most 8 decimals: as integers scaled by 10^8. */
const units = (rate: number) => BigInt(Math.round(rate * 1e8));

/** cents of `from` in `to` at the published rates, rounded half away from zero once (amounts are positive). */
async function converter() {
  const { rates } = (await api<{ rates: Record<string, number> }>("/api/fx-rates")).body;
  return (cents: bigint, from: string, to: string) => {
    if (from === to) return cents;
    const n = cents * units(rates[to]!);
    const d = units(rates[from]!);
    return n / d + ((n % d) * 2n >= d ? 1n : 0n);
  };
}

const toNumber = (cents: bigint) => Number(cents) / 100;

async function order(token: string, productId: string, quantity = 1) {
  const res = await api<Placed>("/api/orders", { token, json: { productId, quantity } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();

describe("GET /api/ai/me", () => {
  it("shows a fresh AI_BUYER its account, guardian, permissions, default mandate and no spend", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const standing = await me(ai);
    const accounts = (
      await api<{ accounts: (Standing["mandate"] & { aiUserId: string; permissions: Record<string, boolean> })[] }>("/api/ai/accounts", {
        token: g.guardianToken,
      })
    ).body.accounts;
    const detail = accounts.find((a) => a.aiUserId === g.aiBuyer.aiUserId)!;
    expect(standing.account).toEqual({ aiUserId: g.aiBuyer.aiUserId, username: g.aiBuyer.username, role: "AI_BUYER", disabled: false });
    expect(standing.guardian).toEqual({ id: g.guardian.id, username: g.guardian.username });
    expect(standing.permissions).toEqual(detail.permissions);
    expect(standing.mandate).toEqual({ mandateCurrency: "USD", orderApprovalThreshold: 5000, monthlyBudget: null, maxDiscountPercent: 10 });
    expect(standing.spend).toEqual({
      currency: "USD",
      month: { from: monthStart(new Date()), total: 0, remaining: null },
      last24hByStore: [],
      unconverted: [],
    });
    expect(standing.approvals).toEqual({ pending: 0, items: [] });
  });

  it("sums orders in USD and EUR to two stores exactly as the mandate does, held one included", async () => {
    const g = await createGuardianWithAi();
    const patch = { aiUserId: g.aiBuyer.aiUserId, mandateCurrency: "EUR", orderApprovalThreshold: 1000, monthlyBudget: 5000 };
    expect((await api("/api/ai/accounts", { method: "PATCH", token: g.guardianToken, json: patch })).status).toBe(200);
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const [a, b] = [await createSeller(), await createSeller()];
    const inUsd = await createProduct(a.token, { price: 300.55, currency: "USD" });
    const inEur = await createProduct(b.token, { price: 400, currency: "EUR" });
    const bigEur = await createProduct(b.token, { price: 700.25, currency: "EUR" });
    expect((await order(ai, inUsd.id)).order.status).toBe("placed");
    expect((await order(ai, inEur.id)).order.status).toBe("placed");
    // 400 + 700.25 EUR to store B within 24 hours passes the 1,000 EUR threshold: held.
    const held = await order(ai, bigEur.id);
    expect(held.order.status).toBe("pending_guardian_approval");

    const conv = await converter();
    const storeA = conv(30055n, "USD", "EUR");
    const storeB = 40000n + 70025n;
    const standing = await me(ai);
    expect(standing.mandate).toEqual({ mandateCurrency: "EUR", orderApprovalThreshold: 1000, monthlyBudget: 5000, maxDiscountPercent: 10 });
    expect(standing.spend.currency).toBe("EUR");
    expect(standing.spend.month.total).toBe(toNumber(storeA + storeB));
    expect(standing.spend.month.remaining).toBe(toNumber(500000n - storeA - storeB));
    expect(standing.spend.last24hByStore).toEqual([
      { storeId: b.storeId, companyName: expect.any(String), total: toNumber(storeB), remainingBeforeApproval: 0 },
      { storeId: a.storeId, companyName: expect.any(String), total: toNumber(storeA), remainingBeforeApproval: toNumber(100000n - storeA) },
    ]);
    expect(standing.spend.unconverted).toEqual([]);
    expect(standing.approvals.pending).toBe(1);
    expect(standing.approvals.items).toEqual([
      expect.objectContaining({ id: held.pendingApproval!.id, aiUserId: g.aiBuyer.aiUserId, kind: "order", subjectId: held.order.id, status: "pending" }),
    ]);

    // The held order is the agent's to see (not 404), and still nobody else's.
    const own = await api<{ order: { status: string } }>(`/api/orders/${held.order.id}`, { token: ai });
    expect(own.status, own.text).toBe(200);
    expect(own.body.order.status).toBe("pending_guardian_approval");
    const listed = await api<{ orders: { id: string }[] }>("/api/orders?as=buyer", { token: ai });
    expect(listed.body.orders.map((o) => o.id)).toContain(held.order.id);
    expect((await api(`/api/orders/${held.order.id}`, { token: b.token })).status).toBe(404);

    // Its approvals: its own only; the sibling sees none of them; the guardian sees them and decides.
    const mine = await api<{ approvals: Approval[]; total: number }>("/api/ai/approvals", { token: ai });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.approvals.map((x) => x.id)).toEqual([held.pendingApproval!.id]);
    const sibling = await login(g.aiSeller.username, g.aiPassword);
    expect((await api<{ total: number }>("/api/ai/approvals", { token: sibling })).body.total).toBe(0);
    expect((await api(`/api/ai/approvals/${held.pendingApproval!.id}/approve`, { method: "POST", token: ai })).status).toBe(404);

    // Rejected, the held order no longer counts and the approval shows its status.
    expect((await api(`/api/ai/approvals/${held.pendingApproval!.id}/reject`, { method: "POST", token: g.guardianToken })).status).toBe(200);
    const after = await me(ai);
    expect(after.spend.month.total).toBe(toNumber(storeA + 40000n));
    expect(after.spend.last24hByStore.find((s) => s.storeId === b.storeId)?.remainingBeforeApproval).toBe(toNumber(100000n - 40000n));
    expect(after.approvals).toEqual({ pending: 0, items: [expect.objectContaining({ id: held.pendingApproval!.id, status: "rejected" })] });
  });

  it("counts a held task reward for the month and shows the task to the agent that made it", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const res = await api<{ task: { id: string; status: string } }>("/api/marketplace/tasks", {
      token: ai,
      json: { title: "Translate our catalog", reward: 6000, currency: "USD" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.task.status).toBe("pending_guardian_approval");
    expect((await api(`/api/marketplace/tasks/${res.body.task.id}`, { token: ai })).status).toBe(200);
    const mine = await api<{ tasks: { id: string }[] }>("/api/marketplace/tasks?mine=created", { token: ai });
    expect(mine.body.tasks.map((t) => t.id)).toEqual([res.body.task.id]);
    const stranger = await createUser();
    expect((await api(`/api/marketplace/tasks/${res.body.task.id}`, { token: await login(stranger.username, stranger.password) })).status).toBe(404);
    const standing = await me(ai);
    expect(standing.spend.month.total).toBe(6000);
    expect(standing.spend.last24hByStore).toEqual([]);
    expect(standing.approvals).toMatchObject({ pending: 1, items: [{ kind: "task", subjectId: res.body.task.id, status: "pending" }] });
  });

  it("shows an AI_SELLER its zero spend and its held quote, which it sees in its inquiry view", async () => {
    const g = await createGuardianWithAi();
    const aiSeller = await login(g.aiSeller.username, g.aiPassword);
    const product = await createProduct(g.guardianToken, { price: 100, keywords: ["x"] });
    const buyer = await createUser();
    const buyerToken = await login(buyer.username, buyer.password);
    const inq = (await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", { token: buyerToken, json: { productId: product.id, message: "price?" } })).body
      .inquiry;
    const held = await api<{ pendingApproval: { id: string } }>(`/api/seller/inquiries/${inq.id}/respond`, {
      token: aiSeller,
      json: { message: "Special price", quotedPrice: 50 },
    });
    expect(held.status, held.text).toBe(201);
    const inbox = await api<{ inquiries: { id: string; replies: { message: string; status: string }[] }[] }>("/api/seller/inquiries", { token: aiSeller });
    expect(inbox.body.inquiries.find((i) => i.id === inq.id)?.replies).toEqual([
      expect.objectContaining({ message: "Special price", status: "pending_guardian_approval" }),
    ]);
    const standing = await me(aiSeller);
    expect(standing.account.role).toBe("AI_SELLER");
    expect(standing.spend).toMatchObject({ currency: "USD", month: { total: 0, remaining: null }, last24hByStore: [], unconverted: [] });
    expect(standing.approvals).toMatchObject({ pending: 1, items: [{ id: held.body.pendingApproval.id, kind: "quote", status: "pending" }] });
    const own = await api<{ approvals: Approval[] }>("/api/ai/approvals?status=pending", { token: aiSeller });
    expect(own.body.approvals.map((a) => a.id)).toEqual([held.body.pendingApproval.id]);
  });

  it("is for AI accounts: a human gets 403 forbidden, no credentials 401", async () => {
    const g = await createGuardianWithAi();
    const res = await api<{ code: string; detail: string }>("/api/ai/me", { token: g.guardianToken });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect(res.body.detail).toMatch(/AI accounts/);
    expect((await api("/api/ai/me")).status).toBe(401);
  });

  it("shows a permission the guardian turned off as off", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    expect((await me(ai)).permissions["order.place"]).toBe(true);
    const set = await api("/api/ai/permissions", {
      method: "PUT",
      token: g.guardianToken,
      json: { aiUserId: g.aiBuyer.aiUserId, permission: "order.place", isAllowed: false },
    });
    expect(set.status, set.text).toBe(200);
    const standing = await me(ai);
    expect(standing.permissions["order.place"]).toBe(false);
    expect(standing.permissions["product.browse"]).toBe(true);
  });
});

describe("MCP get_my_mandate", () => {
  it("lists the tool without arguments and answers exactly what REST answers", async () => {
    const g = await createGuardianWithAi();
    const patch = { aiUserId: g.aiBuyer.aiUserId, orderApprovalThreshold: 2000, monthlyBudget: 3000 };
    expect((await api("/api/ai/accounts", { method: "PATCH", token: g.guardianToken, json: patch })).status).toBe(200);
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const seller = await createSeller();
    const product = await createProduct(seller.token, { price: 1500, currency: "USD" });
    await order(ai, product.id);
    const held = await order(ai, product.id);
    expect(held.order.status).toBe("pending_guardian_approval");

    const client = await mcpClient((await createApiKey(ai)).secret);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === "get_my_mandate");
      expect(tool?.inputSchema).toMatchObject({ type: "object", properties: {} });
      expect(tool?.description).toMatch(/before ordering, quoting or changing prices/);
      const viaMcp = toolJson<Standing>(await client.callTool({ name: "get_my_mandate", arguments: {} }));
      const viaRest = await me(ai);
      expect(viaMcp).toEqual(viaRest);
      expect(viaRest.spend.month).toMatchObject({ total: 3000, remaining: 0 });
      expect(viaRest.spend.last24hByStore).toEqual([{ storeId: seller.storeId, companyName: expect.any(String), total: 3000, remainingBeforeApproval: 0 }]);
      expect(viaRest.approvals.pending).toBe(1);
    } finally {
      await client.close();
    }
  });
});
