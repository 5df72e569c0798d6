// What an agent got wrong from the API's answers (issue #16, contract 9.5): a store reached by its
// product or store id, an AI seller's lists defaulting to its store's side, the keyword rule on PUT
// and PATCH, and product/booth counts that are real.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Problem = { code: string; errors?: { path: string }[] };
type Sent = {
  message: { id: string; conversationId: string; to: string };
  conversation: { id: string; otherUser: { id: string }; product: { id: string } | null };
};
type Order = { id: string; side: "buyer" | "seller" };

async function buyer() {
  const user = await createUser();
  return { user, token: await login(user.username, user.password) };
}

describe("agent answers (#16)", () => {
  let g: Awaited<ReturnType<typeof createGuardianWithAi>>;
  let aiSellerToken: string;
  let product: { id: string };
  let storeId: string;
  let b: Awaited<ReturnType<typeof buyer>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    g = await createGuardianWithAi();
    aiSellerToken = await login(g.aiSeller.username, g.aiPassword);
    product = await createProduct(g.guardianToken, { keywords: ["lamp", "Lampe"] });
    storeId = (await api<{ user: { sellerProfileId: string } }>("/api/auth/me", { token: g.guardianToken })).body.user.sellerProfileId;
    b = await buyer();
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it("reaches a store by productId or storeId, and refuses an ambiguous or missing recipient naming the field", async () => {
    const byProduct = await api<Sent>("/api/chat/messages", { token: b.token, json: { productId: product.id, content: "OEM possible?" } });
    expect(byProduct.status).toBe(201);
    expect(byProduct.body.message.to).toBe(g.guardian.id);
    expect(byProduct.body.conversation.product?.id).toBe(product.id);
    const byStore = await api<Sent>("/api/chat/messages", { token: b.token, json: { storeId: storeId, content: "Catalogue please" } });
    expect(byStore.status, byStore.text).toBe(201);
    expect(byStore.body.message.to).toBe(g.guardian.id);
    expect(byStore.body.conversation.product).toBeNull();
    // The same store and product again: the same conversation.
    const again = await api<Sent>("/api/chat/messages", {
      token: b.token,
      json: { storeId: storeId, productId: product.id, content: "And 500 pcs?" },
    });
    expect(again.body.conversation.id).toBe(byProduct.body.conversation.id);
    const inbox = await api<{ conversations: { id: string }[] }>("/api/chat/conversations", { token: g.guardianToken });
    expect(inbox.body.conversations.map((c) => c.id)).toEqual(expect.arrayContaining([byProduct.body.conversation.id, byStore.body.conversation.id]));

    const other = await createSeller();
    const cases: [unknown, number, string?][] = [
      [{ to: g.guardian.id, storeId: storeId, content: "both" }, 400, "storeId"],
      [{ storeId: other.storeId, productId: product.id, content: "mismatch" }, 400, "productId"],
      [{ content: "nobody" }, 400, "to"],
      [{ storeId: "no-such-store", content: "hi" }, 404],
      [{ productId: "no-such-product", content: "hi" }, 404],
    ];
    for (const [json, status, path] of cases) {
      const res = await api<Problem>("/api/chat/messages", { token: b.token, json });
      expect(res.status, JSON.stringify(json)).toBe(status);
      if (path) expect(res.body.errors?.map((e) => e.path)).toContain(path);
    }
    // The store's own accounts cannot open a conversation with it.
    expect((await api<Problem>("/api/chat/messages", { token: g.guardianToken, json: { storeId: storeId, content: "me" } })).status).toBe(400);
    expect((await api<Problem>("/api/chat/messages", { token: aiSellerToken, json: { productId: product.id, content: "me" } })).status).toBe(403);
  });

  it("MCP send_message reaches the store by productId", async () => {
    const client = await mcpClient((await createApiKey(b.token)).secret);
    clients.push(client);
    const result = await client.callTool({ name: "send_message", arguments: { productId: product.id, content: "Via MCP" } });
    expect(result.isError).toBeFalsy();
    expect(toolJson<Sent>(result).message.to).toBe(g.guardian.id);
  });

  it("an AI_SELLER's orders and inquiries default to its store's side; every order carries side", async () => {
    const placed = await api<{ order: Order }>("/api/orders", { token: b.token, json: { productId: product.id, quantity: 2 } });
    expect(placed.status).toBe(201);
    expect(placed.body.order.side).toBe("buyer");
    const inquiry = await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", { token: b.token, json: { productId: product.id, message: "Lead time?" } });
    expect(inquiry.status).toBe(201);

    const asAi = await api<{ orders: Order[] }>("/api/orders", { token: aiSellerToken });
    expect(asAi.status).toBe(200);
    expect(asAi.body.orders.find((o) => o.id === placed.body.order.id)?.side).toBe("seller");
    const asBuyer = await api<{ orders: Order[] }>("/api/orders", { token: b.token });
    expect(asBuyer.body.orders.map((o) => [o.id, o.side])).toEqual([[placed.body.order.id, "buyer"]]);
    // A human store owner still defaults to buying, and says as=seller for the store.
    expect((await api<{ orders: Order[] }>("/api/orders", { token: g.guardianToken })).body.orders).toEqual([]);
    const owner = await api<{ orders: Order[] }>("/api/orders?as=seller", { token: g.guardianToken });
    expect(owner.body.orders.find((o) => o.id === placed.body.order.id)?.side).toBe("seller");

    const client = await mcpClient((await createApiKey(aiSellerToken)).secret);
    clients.push(client);
    const orders = toolJson<{ orders: Order[] }>(await client.callTool({ name: "list_orders", arguments: {} }));
    expect(orders.orders.map((o) => o.id)).toContain(placed.body.order.id);
    const inquiries = toolJson<{ inquiries: { id: string }[] }>(await client.callTool({ name: "list_inquiries", arguments: {} }));
    expect(inquiries.inquiries.map((i) => i.id)).toContain(inquiry.body.inquiry.id);
  });

  it("an AI seller cannot leave a product without keywords, by PUT or PATCH; PATCH takes keywords", async () => {
    const put = await api<Problem>(`/api/products/${product.id}`, { method: "PUT", token: aiSellerToken, json: { keywords: [] } });
    expect(put.status).toBe(400);
    expect(put.body.code).toBe("keywords_required");
    const patchEmpty = await api<Problem>(`/api/products/${product.id}`, { method: "PATCH", token: aiSellerToken, json: { keywords: [] } });
    expect(patchEmpty.status).toBe(400);
    expect(patchEmpty.body.code).toBe("keywords_required");
    const patched = await api<{ product: { keywords: string[] } }>(`/api/products/${product.id}`, {
      method: "PATCH",
      token: aiSellerToken,
      json: { keywords: ["desk lamp", "Schreibtischlampe"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.product.keywords).toEqual(["desk lamp", "Schreibtischlampe"]);
    // A product the guardian left without keywords: PATCH can now add them (the old error was a loop).
    const bare = await createProduct(g.guardianToken);
    const stillBare = await api<Problem>(`/api/products/${bare.id}`, { method: "PATCH", token: aiSellerToken, json: { acceptsOEM: true } });
    expect(stillBare.body.code).toBe("keywords_required");
    expect((await api(`/api/products/${bare.id}`, { method: "PATCH", token: aiSellerToken, json: { keywords: ["lamp"] } })).status).toBe(200);
  });

  it("counts products and booths for real on booth lists and store answers", async () => {
    const s = await createSeller();
    const booth = (await api<{ booth: { id: string } }>("/api/booths", { token: s.token, json: { name: "Counted booth" } })).body.booth;
    await api<{ booth: { id: string } }>("/api/booths", { token: s.token, json: { name: "Draft booth" } });
    await createProduct(s.token, { boothId: booth.id });
    await createProduct(s.token, { boothId: booth.id });
    const hidden = await createProduct(s.token, { boothId: booth.id });
    expect((await api(`/api/products/${hidden.id}`, { method: "PUT", token: s.token, json: { isHidden: true } })).status).toBe(200);
    expect((await api("/api/booths", { method: "PUT", token: s.token, json: { boothId: booth.id, isPublished: true } })).status).toBe(200);

    // The owner counts every product of the booth (hidden ones too); the public only listed ones.
    const own = await api<{ booths: { id: string; productCount: number }[] }>("/api/booths", { token: s.token });
    expect(own.body.booths.find((x) => x.id === booth.id)?.productCount).toBe(3);
    const pub = await api<{ booths: { id: string; productCount: number }[] }>(`/api/public/booths?sellerId=${s.storeId}`);
    expect(pub.body.booths.map((x) => [x.id, x.productCount])).toEqual([[booth.id, 2]]);
    const store = await api<{ store: { productCount: number; boothCount: number } }>(`/api/stores/${s.storeId}`);
    expect(store.body.store).toMatchObject({ productCount: 2, boothCount: 1 });
    const companyName = (await api<{ store: { companyName: string } }>(`/api/stores/${s.storeId}`)).body.store.companyName;
    const sellers = await api<{ sellers: { id: string; productCount: number; boothCount: number }[] }>(
      `/api/sellers/public?q=${encodeURIComponent(companyName)}`,
    );
    expect(sellers.body.sellers.find((x) => x.id === s.storeId)).toMatchObject({ productCount: 2, boothCount: 1 });
  });
});
