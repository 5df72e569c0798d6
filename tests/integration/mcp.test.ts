// The MCP tool server at /mcp through the official SDK client: every tool is its REST route, with
// the same answers, permissions, audit and validation.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createProduct, createSeller, createUser, login, unique } from "../support/api";
import { createApiKey, mcpClient, toolJson, type ToolResult } from "../support/mcp";

type Problem = { code: string; status: number; errors?: { path: string }[] };

describe("MCP tool server", () => {
  let seller: Awaited<ReturnType<typeof createSeller>>;
  let buyerToken: string;
  let buyerKey: { id: string; secret: string };
  let client: Client;
  let product: { id: string };
  const keyword = unique("mcpkw");

  beforeAll(async () => {
    seller = await createSeller();
    product = await createProduct(seller.token, { title: `Widget ${keyword}`, keywords: [keyword], price: 42 });
    await createProduct(seller.token, { title: `Gadget ${keyword}`, keywords: [keyword], price: 420 });
    const buyer = await createUser("BUYER");
    buyerToken = await login(buyer.username, buyer.password);
    buyerKey = await createApiKey(buyerToken, "mcp buyer");
    client = await mcpClient(buyerKey.secret);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists the tools with input schemas taken from the operations", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      "search_products",
      "create_inquiry",
      "get_product",
      "list_categories",
      "list_exhibitions",
      "get_booth",
      "list_inquiries",
      "respond_inquiry",
      "create_product",
      "update_product",
      "place_order",
      "list_orders",
      "send_message",
      "list_conversations",
      "list_notifications",
    ]) {
      expect(names).toContain(name);
    }
    const search = tools.find((t) => t.name === "search_products")!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["keyword", "category", "minPrice", "maxPrice", "sort", "page", "limit"]),
    );
    const inquiry = tools.find((t) => t.name === "create_inquiry")!;
    expect(inquiry.inputSchema.required).toEqual(expect.arrayContaining(["productId", "message"]));
    expect(Object.keys(inquiry.inputSchema.properties ?? {})).toContain("idempotencyKey");
    const update = tools.find((t) => t.name === "update_product")!;
    expect(update.inputSchema.required).toContain("productId");
    expect(update.inputSchema.properties).not.toHaveProperty("id");
    expect(tools.find((t) => t.name === "list_inquiries")!.inputSchema.properties).toHaveProperty("as");
  });

  it("search_products answers what GET /api/products/search answers for the same query", async () => {
    const rest = await api(`/api/products/search?keyword=${keyword}&minPrice=10&maxPrice=100`);
    expect(rest.status).toBe(200);
    const result = await client.callTool({ name: "search_products", arguments: { keyword, minPrice: 10, maxPrice: 100 } });
    expect(result.isError).toBeFalsy();
    const body = toolJson<{ products: { id: string }[]; total: number }>(result);
    expect(body).toEqual(rest.body);
    expect(body.products.map((p) => p.id)).toEqual([product.id]);
    expect((result as ToolResult).structuredContent).toEqual(rest.body);
  });

  it("create_inquiry creates an inquiry the store sees through REST", async () => {
    const message = `Price for 500 pcs? ${unique()}`;
    const result = await client.callTool({ name: "create_inquiry", arguments: { productId: product.id, message } });
    expect(result.isError).toBeFalsy();
    const { inquiry } = toolJson<{ inquiry: { id: string; sentByAI: boolean } }>(result);
    expect(inquiry.sentByAI).toBe(false);
    const seen = await api<{ inquiries: { id: string; message: string }[] }>("/api/seller/inquiries", { token: seller.token });
    expect(seen.body.inquiries.find((i) => i.id === inquiry.id)?.message).toBe(message);

    // The buyer's own list through the tool, and the store's list through the seller's key.
    const mine = toolJson<{ inquiries: { id: string }[] }>(await client.callTool({ name: "list_inquiries", arguments: { as: "buyer" } }));
    expect(mine.inquiries.map((i) => i.id)).toContain(inquiry.id);
    const sellerClient = await mcpClient((await createApiKey(seller.token)).secret, undefined, "x-api-key");
    try {
      const received = toolJson<{ inquiries: { id: string }[] }>(
        await sellerClient.callTool({ name: "list_inquiries", arguments: { as: "seller", status: "new" } }),
      );
      expect(received.inquiries.map((i) => i.id)).toContain(inquiry.id);
      const reply = await sellerClient.callTool({
        name: "respond_inquiry",
        arguments: { inquiryId: inquiry.id, message: "USD 40 each", quotedPrice: 40, currency: "USD" },
      });
      expect(reply.isError).toBeFalsy();
      expect(toolJson<{ inquiry: { status: string } }>(reply).inquiry.status).toBe("replied");
    } finally {
      await sellerClient.close();
    }
  });

  it("refuses an AI buyer's create_product with permission_denied, in the guardian's audit log", async () => {
    const { guardianToken, aiBuyer, aiPassword } = await createGuardianWithAi();
    const aiToken = await login(aiBuyer.username, aiPassword);
    const aiClient = await mcpClient((await createApiKey(aiToken, "agent")).secret);
    try {
      const result = await aiClient.callTool({ name: "create_product", arguments: { title: "Not allowed", price: 1, currency: "USD", category: "x", moq: 1 } });
      expect(result.isError).toBe(true);
      expect(toolJson<Problem>(result)).toMatchObject({ code: "permission_denied", status: 403 });
      const browse = await aiClient.callTool({ name: "get_product", arguments: { productId: product.id } });
      expect(toolJson<{ product: { id: string } }>(browse).product.id).toBe(product.id);
    } finally {
      await aiClient.close();
    }
    const logs = await api<{ logs: { action: string; success: boolean; details: string }[] }>(
      `/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&action=product.create`,
      { token: guardianToken },
    );
    expect(logs.status).toBe(200);
    expect(logs.body.logs).toEqual([expect.objectContaining({ action: "product.create", success: false })]);
    const browsed = await api<{ logs: { success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&action=product.browse`, {
      token: guardianToken,
    });
    expect(browsed.body.logs[0]?.success).toBe(true);
  });

  it("send_message reaches the other user's conversations, as REST shows them", async () => {
    const other = await createUser("BUYER");
    const sent = await client.callTool({ name: "send_message", arguments: { to: other.username, content: "Hello over MCP" } });
    expect(sent.isError).toBeFalsy();
    const conversationId = toolJson<{ message: { conversationId: string } }>(sent).message.conversationId;
    const theirs = await api<{ conversations: { id: string; unreadCount: number }[] }>("/api/chat/conversations", {
      token: await login(other.username, other.password),
    });
    expect(theirs.body.conversations).toEqual([expect.objectContaining({ id: conversationId, unreadCount: 1 })]);
    const mine = toolJson<{ conversations: { id: string }[] }>(await client.callTool({ name: "list_conversations", arguments: {} }));
    expect(mine.conversations.map((c) => c.id)).toContain(conversationId);
  });

  it("answers bad tool input with isError and validation_failed naming the field", async () => {
    const result = await client.callTool({ name: "create_inquiry", arguments: { productId: product.id, message: 42 } });
    expect(result.isError).toBe(true);
    const problem = toolJson<Problem>(result);
    expect(problem).toMatchObject({ code: "validation_failed", status: 400 });
    expect(problem.errors?.map((e) => e.path)).toContain("message");
    const badChoice = await client.callTool({ name: "list_inquiries", arguments: { as: "admin" } });
    expect(toolJson<Problem>(badChoice).code).toBe("validation_failed");
    const missing = await client.callTool({ name: "get_product", arguments: { productId: "no-such-product" } });
    expect(toolJson<Problem>(missing).code).toBe("not_found");
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("replays place_order with the same idempotencyKey instead of ordering twice", async () => {
    const idempotencyKey = unique("idem");
    const first = toolJson<{ order: { id: string } }>(
      await client.callTool({ name: "place_order", arguments: { productId: product.id, quantity: 3, idempotencyKey } }),
    );
    const again = toolJson<{ order: { id: string } }>(
      await client.callTool({ name: "place_order", arguments: { productId: product.id, quantity: 3, idempotencyKey } }),
    );
    expect(again.order.id).toBe(first.order.id);
    const orders = toolJson<{ orders: { id: string }[] }>(await client.callTool({ name: "list_orders", arguments: { as: "buyer" } }));
    expect(orders.orders.filter((o) => o.id === first.order.id)).toHaveLength(1);
  });

  it("takes API keys only: no key, a JWT, or a revoked key is 401 problem+json before MCP", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${baseUrl()}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(init),
      });
    const refused: Record<string, string>[] = [{}, { authorization: `Bearer ${buyerToken}` }, { "x-api-key": "etk_not-a-key" }];
    for (const headers of refused) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(((await res.json()) as Problem).code).toBe("unauthenticated");
    }
    const ok = await post({ "x-api-key": buyerKey.secret });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-policy")).toMatch(/^\d+;w=\d+$/);
    expect(ok.headers.get("ratelimit")).toMatch(/remaining=\d+/);

    const key = await createApiKey(buyerToken, "short-lived");
    const c = await mcpClient(key.secret);
    expect((await c.listTools()).tools.length).toBeGreaterThan(5);
    expect((await api(`/api/keys/${key.id}`, { method: "DELETE", token: buyerToken })).status).toBe(200);
    await expect(c.listTools()).rejects.toThrow(/401|nauthori/);
    await c.close();
    await expect(mcpClient(key.secret)).rejects.toThrow();
    const revoked = await post({ authorization: `Bearer ${key.secret}` });
    expect(revoked.status).toBe(401);
  });

  it("answers GET and DELETE with 405 (stateless server)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${baseUrl()}/mcp`, { method, headers: { accept: "text/event-stream", "x-api-key": buyerKey.secret } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("content-type")).toMatch(/application\/problem\+json/);
      expect(await res.json()).toMatchObject({ status: 405, code: "method_not_allowed" });
    }
  });
});
