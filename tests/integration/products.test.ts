import { describe, expect, it } from "vitest";
import { api, catalogWindowAfter, createGuardianWithAi, createProduct, createSeller, createUser, login, someCategory } from "../support/api";

type Product = {
  id: string;
  moq: number;
  minOrderQty: number;
  mainImageUrl: string | null;
  keywords: string[];
  viewCount: number;
  price: number;
  seller: { id: string };
  keywordCoverage: { covered: string[]; missing: string[] };
  sentByAI: boolean;
};

describe("products", () => {
  it("create, read (counting views), update, patch and delete", async () => {
    const { token, storeId } = await createSeller();
    const { leaf } = await someCategory(3);
    const created = await api<{ product: Product }>("/api/products", {
      token,
      json: {
        title: "Steel water bottle",
        description: "750 ml",
        price: 4.5,
        currency: "usd",
        category: leaf.slug,
        moq: 200,
        images: ["/uploads/a.png", "/uploads/b.png"],
        keywords: ["Bottle", " bottle ", "水瓶", "Flasche"],
      },
    });
    expect(created.status).toBe(201);
    const p = created.body.product;
    expect(p).toMatchObject({
      moq: 200,
      minOrderQty: 200,
      mainImageUrl: "/uploads/a.png",
      keywords: ["Bottle", "水瓶", "Flasche"],
      price: 4.5,
      sentByAI: false,
      seller: { id: storeId },
    });
    expect(p.keywordCoverage.covered).toEqual(expect.arrayContaining(["zh", "en", "de"]));

    const first = await api<{ product: Product }>(`/api/products/${p.id}`);
    const second = await api<{ product: Product }>(`/api/products/${p.id}`);
    expect(second.body.product.viewCount).toBe(first.body.product.viewCount + 1);

    const put = await api<{ product: Product }>(`/api/products/${p.id}`, {
      method: "PUT",
      token,
      json: { price: 3.99, minOrderQty: 150, keywords: ["bottle", "ボトル"] },
    });
    expect(put.status).toBe(200);
    expect(put.body.product).toMatchObject({ price: 3.99, moq: 150, minOrderQty: 150, keywords: ["bottle", "ボトル"] });
    const patch = await api<{ product: Product & { acceptsOEM: boolean } }>(`/api/products/${p.id}`, {
      method: "PATCH",
      token,
      json: { acceptsOEM: true, moq: 120, mainImageUrl: "/uploads/b.png" },
    });
    expect(patch.body.product).toMatchObject({ acceptsOEM: true, moq: 120, mainImageUrl: "/uploads/b.png" });

    // Hidden: gone for buyers, still there for its store.
    await api(`/api/products/${p.id}`, { method: "PUT", token, json: { isHidden: true } });
    expect((await api(`/api/products/${p.id}`)).status).toBe(404);
    expect((await api<{ total: number }>(`/api/products?sellerId=${storeId}`)).body.total).toBe(0);
    expect((await api(`/api/products/${p.id}`, { token })).status).toBe(200);
    expect((await api<{ total: number }>(`/api/products?sellerId=${storeId}`, { token })).body.total).toBe(1);
    await api(`/api/products/${p.id}`, { method: "PUT", token, json: { isHidden: false } });
    // Lists show a change within a second (contract 9.3); the product's own page at once.
    await catalogWindowAfter(Date.now());
    expect((await api<{ total: number }>(`/api/products?sellerId=${storeId}`)).body.total).toBe(1);

    expect((await api(`/api/products/${p.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await api(`/api/products/${p.id}`)).status).toBe(404);
  });

  it("refuses bad input with 400 naming the field, and writes nothing", async () => {
    const { token, storeId } = await createSeller();
    const { leaf } = await someCategory();
    const base = { title: "X", price: 1, currency: "USD", category: leaf.id, moq: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, keywords: Array.from({ length: 51 }, (_, i) => `kw${i}`) }, "keywords"],
      [{ ...base, keywords: ["ok", "x".repeat(101)] }, "keywords.1"],
      [{ ...base, category: "no-such-category" }, "category"],
      [{ ...base, currency: "US" }, "currency"],
      [{ ...base, price: 1.234 }, "price"],
      [{ ...base, price: -1 }, "price"],
      [{ ...base, moq: 0 }, "moq"],
      [{ ...base, moq: undefined }, "moq"],
      [{ ...base, title: "" }, "title"],
      [{ ...base, price: "12" }, "price"],
    ];
    for (const [body, path] of cases) {
      const res = await api("/api/products", { token, json: body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((res.body.errors as { path: string }[]).map((e) => e.path)).toContain(path);
    }
    const list = await api<{ total: number }>(`/api/products?sellerId=${storeId}`);
    expect(list.body.total).toBe(0);
  });

  it("never lets another store change or delete a product (404)", async () => {
    const owner = await createSeller();
    const other = await createSeller();
    const p = await createProduct(owner.token);
    expect((await api(`/api/products/${p.id}`, { method: "PUT", token: other.token, json: { price: 1 } })).status).toBe(404);
    expect((await api(`/api/products/${p.id}`, { method: "PATCH", token: other.token, json: { moq: 5 } })).status).toBe(404);
    expect((await api(`/api/products/${p.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await api<{ product: { price: number } }>(`/api/products/${p.id}`)).body.product.price).toBe(10);
    const buyer = await createUser("BUYER");
    const noStore = await api("/api/products", {
      token: await login(buyer.username, buyer.password),
      json: { title: "X", price: 1, currency: "USD", category: (await someCategory()).leaf.id, moq: 1 },
    });
    expect(noStore.status).toBe(409);
    expect(noStore.body.code).toBe("seller_profile_required");
    expect((await api("/api/products", { json: {} })).status).toBe(401);
  });

  it("applies the AI seller rules: keywords required, guardian's store, keyword coverage", async () => {
    const { guardian, guardianToken, aiSeller, aiBuyer, aiPassword } = await createGuardianWithAi();
    const guardianStore = (await api<{ user: { sellerProfileId: string } }>("/api/auth/me", { token: guardianToken })).body.user.sellerProfileId;
    const aiToken = await login(aiSeller.username, aiPassword);
    const { leaf } = await someCategory(5);
    const base = { title: "Desk lamp", price: 20, currency: "USD", category: leaf.id, moq: 10 };
    const noKeywords = await api("/api/products", { token: aiToken, json: base });
    expect(noKeywords.status).toBe(400);
    expect(noKeywords.body.code).toBe("keywords_required");
    const created = await api<{ product: Product }>("/api/products", { token: aiToken, json: { ...base, keywords: ["desk lamp", "台灯"] } });
    expect(created.status).toBe(201);
    expect(created.body.product).toMatchObject({ sentByAI: true, seller: { id: guardianStore } });
    expect(created.body.product.keywordCoverage.missing).toEqual(["ja", "ko", "ru", "ar|hi"]);

    // A product of the guardian's store without keywords: an AI update must add them.
    const bare = await createProduct(guardianToken);
    const upd = await api(`/api/products/${bare.id}`, { method: "PUT", token: aiToken, json: { price: 11 } });
    expect(upd.body.code).toBe("keywords_required");
    expect((await api(`/api/products/${bare.id}`, { method: "PUT", token: aiToken, json: { price: 9.5, keywords: ["lamp"] } })).status).toBe(200);

    // The AI buyer lacks product.create: refused first, audited as a failure.
    const buyerToken = await login(aiBuyer.username, aiPassword);
    const refused = await api("/api/products", { token: buyerToken, json: { ...base, keywords: ["x"] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("permission_denied");
    const logs = await api<{ logs: { action: string; success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&action=product.create`, {
      token: guardianToken,
    });
    expect(logs.body.logs).toEqual([expect.objectContaining({ action: "product.create", success: false })]);
    expect(guardian.username).toBeTruthy();
  });

  it("holds an AI seller's deep price cut for the guardian", async () => {
    const { guardianToken, aiSeller, aiPassword } = await createGuardianWithAi();
    const aiToken = await login(aiSeller.username, aiPassword);
    const p = await createProduct(aiToken, { price: 100, keywords: ["widget"] });
    const small = await api<{ product: Product }>(`/api/products/${p.id}`, { method: "PUT", token: aiToken, json: { price: 95 } });
    expect(small.body.product.price).toBe(95);
    const deep = await api<{ product: Product & { pendingApproval?: { id: string } } }>(`/api/products/${p.id}`, {
      method: "PUT",
      token: aiToken,
      json: { price: 50, reason: "clearance" },
    });
    expect(deep.status).toBe(200);
    expect(deep.body.product.price).toBe(95);
    const approvalId = deep.body.product.pendingApproval!.id;
    const queue = await api<{ approvals: { id: string; kind: string; reason: string }[] }>("/api/ai/approvals?status=pending", { token: guardianToken });
    expect(queue.body.approvals).toEqual([expect.objectContaining({ id: approvalId, kind: "price", reason: "clearance" })]);
    expect((await api(`/api/ai/approvals/${approvalId}/approve`, { method: "POST", token: guardianToken })).status).toBe(200);
    expect((await api<{ product: Product }>(`/api/products/${p.id}`)).body.product.price).toBe(50);
  });
});
