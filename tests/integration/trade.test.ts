import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";

type Inquiry = { id: string; status: string; sentByAI: boolean; replies: { message: string; quotedPrice: number | null; status: string }[] };
type Order = { id: string; status: string; total: number; quantity: number; sentByAI: boolean };

async function buyer() {
  const u = await createUser("BUYER");
  return { user: u, token: await login(u.username, u.password) };
}

describe("inquiries", () => {
  it("new -> replied (with a quote) -> closed, for the parties only", async () => {
    const seller = await createSeller();
    const p = await createProduct(seller.token, { price: 12 });
    const b = await buyer();
    const created = await api<{ inquiry: Inquiry }>("/api/buyer/inquiries", { token: b.token, json: { productId: p.id, message: "Price for 5,000 pcs?" } });
    expect(created.status).toBe(201);
    expect(created.body.inquiry).toMatchObject({ status: "new", sentByAI: false, replies: [] });
    const id = created.body.inquiry.id;

    const inbox = await api<{ inquiries: Inquiry[]; total: number }>("/api/seller/inquiries?status=new", { token: seller.token });
    expect(inbox.body.inquiries.map((i) => i.id)).toEqual([id]);
    const other = await createSeller();
    expect((await api(`/api/seller/inquiries/${id}/respond`, { token: other.token, json: { message: "me too" } })).status).toBe(404);
    expect((await api<{ total: number }>("/api/seller/inquiries", { token: other.token })).body.total).toBe(0);

    const reply = await api<{ inquiry: Inquiry }>(`/api/seller/inquiries/${id}/respond`, {
      token: seller.token,
      json: { message: "USD 10.50 each", quotedPrice: 10.5 },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.inquiry.status).toBe("replied");
    const mine = await api<{ inquiries: Inquiry[] }>("/api/buyer/inquiries", { token: b.token });
    expect(mine.body.inquiries[0]!.replies).toEqual([expect.objectContaining({ message: "USD 10.50 each", quotedPrice: 10.5 })]);
    expect((await api<{ total: number }>("/api/seller/inquiries?status=new", { token: seller.token })).body.total).toBe(0);

    const stranger = await buyer();
    expect((await api(`/api/buyer/inquiries/${id}/close`, { method: "POST", token: stranger.token })).status).toBe(404);
    const closed = await api<{ inquiry: Inquiry }>(`/api/buyer/inquiries/${id}/close`, { method: "POST", token: b.token });
    expect(closed.body.inquiry.status).toBe("closed");
    expect((await api(`/api/seller/inquiries/${id}/respond`, { token: seller.token, json: { message: "late" } })).status).toBe(409);
  });

  it("refuses bad input and unknown products", async () => {
    const b = await buyer();
    expect((await api("/api/buyer/inquiries", { token: b.token, json: { productId: "nope", message: "hi" } })).status).toBe(404);
    const seller = await createSeller();
    const p = await createProduct(seller.token);
    expect((await api("/api/buyer/inquiries", { token: b.token, json: { productId: p.id, message: "  " } })).status).toBe(400);
    expect((await api("/api/buyer/inquiries", { token: seller.token, json: { productId: p.id, message: "my own" } })).status).toBe(403);
    expect((await api("/api/buyer/inquiries", { json: { productId: p.id, message: "anon" } })).status).toBe(401);
  });

  it("holds an AI seller's deep discount quote until the guardian approves it", async () => {
    const g = await createGuardianWithAi();
    const aiSeller = await login(g.aiSeller.username, g.aiPassword);
    const p = await createProduct(g.guardianToken, { price: 100, keywords: ["x"] });
    const b = await buyer();
    const inq = (await api<{ inquiry: Inquiry }>("/api/buyer/inquiries", { token: b.token, json: { productId: p.id, message: "discount?" } })).body.inquiry;
    const held = await api<{ inquiry: Inquiry; pendingApproval: { id: string } }>(`/api/seller/inquiries/${inq.id}/respond`, {
      token: aiSeller,
      json: { message: "Special price", quotedPrice: 70, reason: "large buyer" },
    });
    expect(held.status).toBe(201);
    expect(held.body.inquiry.status).toBe("new");
    expect(held.body.inquiry.replies[0]).toMatchObject({ status: "pending_guardian_approval" });
    expect((await api<{ inquiries: Inquiry[] }>("/api/buyer/inquiries", { token: b.token })).body.inquiries[0]!.replies).toEqual([]);
    expect((await api(`/api/ai/approvals/${held.body.pendingApproval.id}/approve`, { method: "POST", token: g.guardianToken })).status).toBe(200);
    const after = (await api<{ inquiries: Inquiry[] }>("/api/buyer/inquiries", { token: b.token })).body.inquiries[0]!;
    expect(after.status).toBe("replied");
    expect(after.replies).toEqual([expect.objectContaining({ quotedPrice: 70, status: "visible" })]);
  });
});

describe("orders", () => {
  it("placed -> confirmed -> fulfilled; minimum order; parties only", async () => {
    const seller = await createSeller();
    const p = await createProduct(seller.token, { price: 2.35, moq: 100 });
    const b = await buyer();
    const low = await api("/api/orders", { token: b.token, json: { productId: p.id, quantity: 99 } });
    expect(low.status).toBe(400);
    expect((low.body.errors as { path: string }[])[0]!.path).toBe("quantity");
    const placed = await api<{ order: Order }>("/api/orders", { token: b.token, json: { productId: p.id, quantity: 300, note: "blue" } });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ status: "placed", total: 705, quantity: 300 });
    const id = placed.body.order.id;
    expect((await api(`/api/orders/${id}/confirm`, { method: "POST", token: b.token })).status).toBe(403);
    expect((await api(`/api/orders/${id}`, { token: (await buyer()).token })).status).toBe(404);
    expect((await api<{ order: Order }>(`/api/orders/${id}/confirm`, { method: "POST", token: seller.token })).body.order.status).toBe("confirmed");
    expect((await api(`/api/orders/${id}/confirm`, { method: "POST", token: seller.token })).status).toBe(409);
    expect((await api<{ order: Order }>(`/api/orders/${id}/fulfill`, { method: "POST", token: seller.token })).body.order.status).toBe("fulfilled");
    expect((await api(`/api/orders/${id}/cancel`, { method: "POST", token: b.token })).status).toBe(409);
    expect((await api<{ orders: Order[] }>("/api/orders?as=seller", { token: seller.token })).body.orders.map((o) => o.id)).toEqual([id]);
    expect((await api<{ orders: Order[] }>("/api/orders", { token: b.token })).body.orders.map((o) => o.id)).toEqual([id]);
    const again = await api<{ order: Order }>("/api/orders", { token: b.token, json: { productId: p.id, quantity: 100 } });
    expect((await api<{ order: Order }>(`/api/orders/${again.body.order.id}/cancel`, { method: "POST", token: b.token })).body.order.status).toBe("cancelled");
  });

  it("holds an AI buyer's large order, invisible to the store until the guardian approves", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const seller = await createSeller();
    const p = await createProduct(seller.token, { price: 60, moq: 1 });
    const small = await api<{ order: Order }>("/api/orders", { token: ai, json: { productId: p.id, quantity: 10 } });
    expect(small.body.order).toMatchObject({ status: "placed", sentByAI: true });
    const big = await api<{ order: Order; pendingApproval: { id: string } }>("/api/orders", {
      token: ai,
      json: { productId: p.id, quantity: 100, reason: "Q1 stock" },
    });
    expect(big.body.order.status).toBe("pending_guardian_approval");
    const storeView = await api<{ orders: Order[] }>("/api/orders?as=seller", { token: seller.token });
    expect(storeView.body.orders.map((o) => o.id)).toEqual([small.body.order.id]);
    expect((await api(`/api/orders/${big.body.order.id}`, { token: seller.token })).status).toBe(404);
    const queue = await api<{ approvals: { id: string; summary: { total: number; counterparty: { name: string } }; reason: string }[] }>(
      "/api/ai/approvals?status=pending",
      { token: g.guardianToken },
    );
    expect(queue.body.approvals[0]).toMatchObject({ id: big.body.pendingApproval.id, reason: "Q1 stock", summary: { total: 6000 } });
    await api(`/api/ai/approvals/${big.body.pendingApproval.id}/approve`, { method: "POST", token: g.guardianToken });
    expect((await api<{ order: Order }>(`/api/orders/${big.body.order.id}`, { token: seller.token })).body.order.status).toBe("placed");
  });

  it("refuses self-trade: an AI buyer ordering from or inquiring at its guardian's store (audited)", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const own = await createProduct(g.guardianToken, { keywords: ["x"] });
    for (const [path, json] of [
      ["/api/orders", { productId: own.id, quantity: 1 }],
      ["/api/buyer/inquiries", { productId: own.id, message: "hi" }],
    ] as const) {
      const res = await api(path, { token: ai, json });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("self_trade_forbidden");
    }
    const logs = await api<{ logs: { action: string; success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&success=false`, {
      token: g.guardianToken,
    });
    expect(logs.body.logs.map((l) => l.action).sort()).toEqual(["inquiry.create", "order.place"]);
  });
});

describe("isolation and retries", () => {
  it("keeps an AI_SELLER from seeing its sibling's inquiries and orders", async () => {
    const g = await createGuardianWithAi();
    const aiBuyer = await login(g.aiBuyer.username, g.aiPassword);
    const aiSeller = await login(g.aiSeller.username, g.aiPassword);
    const other = await createSeller();
    const p = await createProduct(other.token, { price: 5 });
    const inq = (await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", { token: aiBuyer, json: { productId: p.id, message: "sample?" } })).body
      .inquiry;
    const ord = (await api<{ order: { id: string } }>("/api/orders", { token: aiBuyer, json: { productId: p.id, quantity: 1 } })).body.order;
    const sellerSide = [
      await api<{ inquiries: { id: string }[] }>("/api/seller/inquiries?limit=100", { token: aiSeller }),
      await api<{ inquiries: { id: string }[] }>("/api/buyer/inquiries?limit=100", { token: aiSeller }),
    ];
    for (const r of sellerSide) expect(r.body.inquiries.map((i) => i.id)).not.toContain(inq.id);
    for (const as of ["buyer", "seller"]) {
      const r = await api<{ orders: { id: string }[] }>(`/api/orders?as=${as}&limit=100`, { token: aiSeller });
      expect(r.body.orders.map((o) => o.id)).not.toContain(ord.id);
    }
    expect((await api(`/api/orders/${ord.id}`, { token: aiSeller })).status).toBe(404);
    // And the guardian's store data is not the AI buyer's to see.
    const guardianProduct = await createProduct(g.guardianToken, { keywords: ["x"] });
    const b = await createUser("BUYER");
    await api("/api/orders", { token: await login(b.username, b.password), json: { productId: guardianProduct.id, quantity: 1 } });
    expect((await api("/api/orders?as=seller", { token: aiBuyer })).status).toBe(409);
    expect((await api("/api/seller/inquiries", { token: aiBuyer })).status).toBe(403);
  });

  it("creates one order for the same Idempotency-Key sent twice", async () => {
    const seller = await createSeller();
    const p = await createProduct(seller.token, { price: 3 });
    const b = await buyer();
    const key = `order-${Date.now()}`;
    const first = await api<{ order: Order }>("/api/orders", { token: b.token, json: { productId: p.id, quantity: 7 }, headers: { "idempotency-key": key } });
    const second = await api<{ order: Order }>("/api/orders", { token: b.token, json: { productId: p.id, quantity: 7 }, headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.order.id).toBe(first.body.order.id);
    expect((await api<{ total: number }>("/api/orders", { token: b.token })).body.total).toBe(1);
    const changed = await api("/api/orders", { token: b.token, json: { productId: p.id, quantity: 8 }, headers: { "idempotency-key": key } });
    expect(changed.status).toBe(422);
  });
});

describe("requirements, shoutouts, tasks", () => {
  it("posts and browses requirements, hiding a guardian's own from its AI accounts", async () => {
    const g = await createGuardianWithAi();
    const aiBuyer = await login(g.aiBuyer.username, g.aiPassword);
    const aiSeller = await login(g.aiSeller.username, g.aiPassword);
    const mine = await api<{ requirement: { id: string; sentByAI: boolean } }>("/api/buyer/requirements", {
      token: aiBuyer,
      json: { title: "10k cotton bags", budget: 3000, currency: "usd" },
    });
    expect(mine.status).toBe(201);
    expect(mine.body.requirement.sentByAI).toBe(true);
    expect((await api("/api/buyer/requirements", { token: aiBuyer, json: { title: "x", budget: 5 } })).status).toBe(400);
    const seller = await createSeller();
    const seen = await api<{ requirements: { id: string }[] }>("/api/requirements?limit=100&q=cotton%20bags", { token: seller.token });
    expect(seen.body.requirements.map((r) => r.id)).toContain(mine.body.requirement.id);
    const sibling = await api<{ requirements: { id: string }[] }>("/api/requirements?limit=100&q=cotton%20bags", { token: aiSeller });
    expect(sibling.body.requirements.map((r) => r.id)).not.toContain(mine.body.requirement.id);
    expect((await api(`/api/buyer/requirements/${mine.body.requirement.id}/close`, { method: "POST", token: aiBuyer })).status).toBe(200);
    expect((await api<{ requirements: { status: string }[] }>("/api/buyer/requirements", { token: aiBuyer })).body.requirements[0]!.status).toBe("closed");
  });

  it("posts shoutouts into the public feed, AI ones marked", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiSeller.username, g.aiPassword);
    const text = `New catalog ${Date.now()}`;
    expect((await api("/api/shoutout", { token: ai, json: { content: text } })).status).toBe(201);
    expect((await api("/api/shoutout", { token: ai, json: { content: "x".repeat(501) } })).status).toBe(400);
    const feed = await api<{ shoutouts: { content: string; sentByAI: boolean; author: { isAI: boolean } }[] }>("/api/shoutout?limit=50");
    expect(feed.body.shoutouts.find((s) => s.content === text)).toMatchObject({ sentByAI: true, author: { isAI: true } });
  });

  it("holds an AI account's task whose reward its guardian's mandate does not cover, unseen by others until approved", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    const other = await buyer();
    type Task = { id: string; status: string };
    const post = (title: string, reward: number) => api<{ task: Task }>("/api/marketplace/tasks", { token: ai, json: { title, reward, currency: "USD" } });
    const small = await post("Small job", 100);
    expect(small.body.task.status).toBe("open");
    const big = (await post("Big job", 999_999_999_999.99)).body.task;
    expect(big.status).toBe("pending_guardian_approval");
    // Nobody else sees it or can act on it; its creator does.
    expect((await api(`/api/marketplace/tasks/${big.id}`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/marketplace/tasks/${big.id}/claim`, { method: "POST", token: other.token })).status).toBe(404);
    const listed = await api<{ tasks: Task[] }>("/api/marketplace/tasks?status=pending_guardian_approval&limit=100", { token: other.token });
    expect(listed.body.tasks.map((t) => t.id)).not.toContain(big.id);
    expect((await api<{ task: Task }>(`/api/marketplace/tasks/${big.id}`, { token: ai })).body.task.status).toBe("pending_guardian_approval");
    // The guardian sees what it would release, and approves: the task opens for others.
    const pending = await api<{ approvals: { id: string; kind: string; subjectId: string; summary: { total: number; rule: string } }[] }>(
      "/api/ai/approvals?status=pending",
      { token: g.guardianToken },
    );
    const approval = pending.body.approvals.find((a) => a.subjectId === big.id)!;
    expect(approval).toMatchObject({ kind: "task", summary: { total: 999_999_999_999.99, rule: expect.stringContaining("threshold") } });
    expect((await api(`/api/ai/approvals/${approval.id}/approve`, { method: "POST", token: g.guardianToken })).status).toBe(200);
    expect((await api<{ task: Task }>(`/api/marketplace/tasks/${big.id}/claim`, { method: "POST", token: other.token })).body.task.status).toBe("claimed");
    // A rejected one stays its creator's alone.
    const refused = (await post("Refused job", 7000)).body.task;
    const second = (
      await api<{ approvals: { id: string; subjectId: string }[] }>("/api/ai/approvals?status=pending", { token: g.guardianToken })
    ).body.approvals.find((a) => a.subjectId === refused.id)!;
    expect((await api(`/api/ai/approvals/${second.id}/reject`, { method: "POST", token: g.guardianToken })).status).toBe(200);
    expect((await api<{ task: Task }>(`/api/marketplace/tasks/${refused.id}`, { token: ai })).body.task.status).toBe("rejected");
    expect((await api(`/api/marketplace/tasks/${refused.id}`, { token: other.token })).status).toBe(404);
  });

  it("open -> claimed -> completed; creator cancels only open; no claiming your own or your sibling's", async () => {
    const g = await createGuardianWithAi();
    const aiBuyer = await login(g.aiBuyer.username, g.aiPassword);
    const aiSeller = await login(g.aiSeller.username, g.aiPassword);
    type Task = { id: string; status: string; result: string | null; claimedBy: { id: string } | null };
    const t = (await api<{ task: Task }>("/api/marketplace/tasks", { token: aiBuyer, json: { title: "Translate a catalog", reward: 50, currency: "EUR" } }))
      .body.task;
    expect((await api(`/api/marketplace/tasks/${t.id}/claim`, { method: "POST", token: aiBuyer })).status).toBe(403);
    const sib = await api(`/api/marketplace/tasks/${t.id}/claim`, { method: "POST", token: aiSeller });
    expect(sib.body.code).toBe("self_trade_forbidden");
    // Nor its guardian one of its agent's, nor the agent one of its guardian's (contract 9.1).
    expect((await api(`/api/marketplace/tasks/${t.id}/claim`, { method: "POST", token: g.guardianToken })).body.code).toBe("self_trade_forbidden");
    const mine = (await api<{ task: Task }>("/api/marketplace/tasks", { token: g.guardianToken, json: { title: "Guardian's task" } })).body.task;
    expect((await api(`/api/marketplace/tasks/${mine.id}/claim`, { method: "POST", token: aiSeller })).body.code).toBe("self_trade_forbidden");
    const worker = await buyer();
    expect((await api<{ task: Task }>(`/api/marketplace/tasks/${t.id}/claim`, { method: "POST", token: worker.token })).body.task.status).toBe("claimed");
    expect((await api(`/api/marketplace/tasks/${t.id}/claim`, { method: "POST", token: (await buyer()).token })).status).toBe(409);
    expect((await api(`/api/marketplace/tasks/${t.id}/cancel`, { method: "POST", token: aiBuyer })).status).toBe(409);
    expect((await api(`/api/marketplace/tasks/${t.id}/complete`, { token: aiBuyer, json: { result: "done" } })).status).toBe(403);
    const done = await api<{ task: Task }>(`/api/marketplace/tasks/${t.id}/complete`, { token: worker.token, json: { result: "Translated into 5 languages" } });
    expect(done.body.task).toMatchObject({ status: "completed", result: "Translated into 5 languages" });
    const t2 = (await api<{ task: Task }>("/api/marketplace/tasks", { token: worker.token, json: { title: "Another" } })).body.task;
    expect((await api<{ task: Task }>(`/api/marketplace/tasks/${t2.id}/cancel`, { method: "POST", token: worker.token })).body.task.status).toBe("cancelled");
    expect((await api<{ tasks: Task[] }>("/api/marketplace/tasks?mine=created", { token: worker.token })).body.tasks.map((x) => x.id)).toEqual([t2.id]);
  });
});

describe("store back office", () => {
  it("counts brochure downloads and product views in analytics and the dashboard", async () => {
    const seller = await createSeller();
    const form = new FormData();
    form.append("type", "boothDocument");
    form.append("file", new Blob([Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")], { type: "application/pdf" }), "catalog.pdf");
    const { baseUrl } = await import("../support/api");
    const up = await fetch(`${baseUrl()}/api/upload`, { method: "POST", headers: { authorization: `Bearer ${seller.token}` }, body: form });
    expect(up.status).toBe(201);
    const file = (await up.json()) as { url: string };
    const br = await api<{ brochure: { id: string; downloadUrl: string } }>("/api/seller/brochures", {
      token: seller.token,
      json: { title: "Catalog 2026", fileUrl: file.url },
    });
    expect(br.status).toBe(201);
    expect((await api("/api/seller/brochures", { token: seller.token, json: { title: "x", fileUrl: "/uploads/not-stored.pdf" } })).status).toBe(400);
    for (let i = 0; i < 2; i++) {
      const d = await api(br.body.brochure.downloadUrl);
      expect(d.status).toBe(302);
      expect(d.headers.get("location")).toBe(file.url);
    }
    const p = await createProduct(seller.token);
    for (let i = 0; i < 3; i++) await api(`/api/products/${p.id}`);
    const today = new Date().toISOString().slice(0, 10);
    // Views are written in groups about once a second (lib/services/catalog/views.ts): poll for them.
    const readViews = () => api<{ total: number; days: { date: string; count: number }[] }>("/api/analytics/views", { token: seller.token });
    let views = await readViews();
    for (const deadline = Date.now() + 10_000; views.body.total !== 3 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      views = await readViews();
    }
    expect(views.body.total).toBe(3);
    expect(views.body.days).toHaveLength(30);
    expect(views.body.days.at(-1)).toEqual({ date: today, count: 3 });
    expect((await api<{ total: number }>("/api/analytics/downloads", { token: seller.token })).body.total).toBe(2);
    expect((await api("/api/analytics/views?from=2020-01-01&to=2026-01-01", { token: seller.token })).status).toBe(400);
    const dash = await api<{ products: number; downloadsLast30Days: number; viewsLast30Days: number; newInquiries: number }>("/api/seller/dashboard", {
      token: seller.token,
    });
    expect(dash.body).toMatchObject({ products: 1, downloadsLast30Days: 2, viewsLast30Days: 3, newInquiries: 0 });
    expect((await api("/api/seller/dashboard", { token: (await buyer()).token })).status).toBe(409);
  });

  it("edits store settings (AI sellers need store.profile.edit) and the user profile", async () => {
    const g = await createGuardianWithAi();
    const ai = await login(g.aiSeller.username, g.aiPassword);
    const refused = await api("/api/seller/settings", { method: "PUT", token: ai, json: { description: "by AI" } });
    expect(refused.body.code).toBe("permission_denied");
    const ok = await api<{ settings: { description: string; website: string } }>("/api/seller/settings", {
      method: "PUT",
      token: g.guardianToken,
      json: { description: "Since 2009", website: "https://example.com" },
    });
    expect(ok.body.settings).toMatchObject({ description: "Since 2009", website: "https://example.com" });
    expect((await api("/api/seller/settings", { method: "PUT", token: g.guardianToken, json: { website: "not a url" } })).status).toBe(400);
    const prof = await api<{ profile: { isAI: boolean; guardian: { username: string } } }>("/api/user/profile", { token: ai });
    expect(prof.body.profile).toMatchObject({ isAI: true, guardian: { username: g.guardian.username } });
    const upd = await api<{ profile: { locale: string } }>("/api/user/profile", { method: "PUT", token: g.guardianToken, json: { locale: "de" } });
    expect(upd.body.profile.locale).toBe("de");
    expect((await api("/api/user/profile", { method: "PUT", token: g.guardianToken, json: { locale: "xx" } })).status).toBe(400);
  });
});
