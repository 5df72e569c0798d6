// Every MCP tool, driven through the official SDK client with API keys, on real data the agents make
// as they go (a store opens a booth and lists a product, a buyer finds it, asks, chats, negotiates and
// orders). Each answer's structuredContent is validated against the tool's listed outputSchema (here
// with ajv, and by the SDK client itself), and the text content says the same. The test fails when
// tools/list names a tool this walk did not call.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import Ajv, { type ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, catalogWindowAfter, createGuardianWithAi, createSeller, createUser, login, someCategory, unique } from "../support/api";
import { createApiKey, mcpClient, toolJson, type ToolResult } from "../support/mcp";

type Json = Record<string, unknown>;
type Problem = { code: string; status: number; detail: string };

describe("MCP tool matrix", () => {
  const clients: Client[] = [];
  const called = new Set<string>();
  const validators = new Map<string, ValidateFunction>();
  let tools: Tool[];
  let seller: Client, buyer: Client, aiBuyer: Client;
  let storeId: string;
  let sellerToken: string;

  const connect = async (token: string) => {
    const c = await mcpClient((await createApiKey(token, `matrix ${unique()}`)).secret);
    clients.push(c);
    return c;
  };

  /** Calls a tool, expects success, and holds its structuredContent to the tool's outputSchema. */
  async function call<T = Json>(client: Client, name: string, args: Json = {}): Promise<T> {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
    const structured = result.structuredContent;
    expect(structured, `${name} has structuredContent`).toBeTypeOf("object");
    expect(toolJson(result), `${name}: the text says what structuredContent says`).toEqual(structured);
    const validate = validators.get(name);
    expect(validate, `${name} has an outputSchema`).toBeDefined();
    expect(validate!(structured), `${name}: ${JSON.stringify(validate!.errors?.slice(0, 3))}`).toBe(true);
    called.add(name);
    return structured as T;
  }

  beforeAll(async () => {
    const s = await createSeller();
    storeId = s.storeId;
    sellerToken = s.token;
    const b = await createUser("BUYER");
    const g = await createGuardianWithAi();
    [seller, buyer, aiBuyer] = await Promise.all([
      connect(s.token),
      connect(await login(b.username, b.password)),
      connect(await login(g.aiBuyer.username, g.aiPassword)),
    ]);
    tools = (await buyer.listTools()).tools;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    for (const t of tools) if (t.outputSchema) validators.set(t.name, ajv.compile(t.outputSchema));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  it("lists every tool with described arguments named <thing>Id, an object outputSchema and annotations", () => {
    expect(tools.length).toBeGreaterThanOrEqual(45);
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe("object");
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
      });
      for (const [arg, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        expect(arg, `${t.name}: no bare id`).not.toBe("id");
        expect((schema as { description?: string }).description, `${t.name}.${arg} is described`).toMatch(/\w/);
      }
    }
  });

  it("drives every tool: a store lists, a buyer finds, asks, chats, negotiates and orders", async () => {
    // The AI buyer's standing, and an order past its mandate held for the guardian.
    await call(aiBuyer, "get_my_mandate");
    await call(aiBuyer, "get_fx_rates");
    const categories = await call<{ categories: { id: string; parentId: string | null }[] }>(buyer, "list_categories");
    expect(categories.categories.length).toBeGreaterThan(0);
    const category = (await someCategory()).leaf.id;

    // The store: a booth, a product in it, both changed.
    const { booth } = await call<{ booth: { id: string } }>(seller, "create_booth", { name: `Matrix booth ${unique()}` });
    await call(seller, "update_booth", { boothId: booth.id, description: "Lamps and more" });
    // Publishing is the human owner's (PUT /api/booths), not a tool's.
    expect((await api("/api/booths", { method: "PUT", token: sellerToken, json: { boothId: booth.id, isPublished: true } })).status).toBe(200);
    expect((await call<{ booths: { id: string }[] }>(seller, "list_my_booths")).booths.map((x) => x.id)).toContain(booth.id);
    const keyword = unique("lamp");
    const since = Date.now();
    const { product } = await call<{ product: { id: string } }>(seller, "create_product", {
      title: `Desk ${keyword}`,
      description: "A desk lamp",
      price: 10,
      currency: "USD",
      category,
      moq: 1,
      keywords: [keyword],
      boothId: booth.id,
    });
    await call(seller, "update_product", { productId: product.id, description: "A brighter desk lamp" });
    const spare = await call<{ product: { id: string } }>(seller, "create_product", {
      title: "Spare",
      price: 5,
      currency: "USD",
      category,
      moq: 1,
      keywords: ["spare"],
    });
    await call(seller, "delete_product", { productId: spare.product.id });

    // The catalog, as the buyer reads it.
    const exhibition = await api<{ exhibition: { id: string } }>("/api/exhibitions", {
      token: await adminToken(),
      json: { name: `Matrix Expo ${unique()}`, startsAt: "2031-01-01T00:00:00Z", endsAt: "2031-01-05T00:00:00Z" },
    });
    expect(exhibition.status).toBe(201);
    await call(buyer, "list_exhibitions");
    await call(buyer, "get_exhibition", { exhibitionId: exhibition.body.exhibition.id });
    expect((await call<{ booths: { id: string }[] }>(buyer, "list_booths", { sellerId: storeId })).booths.map((x) => x.id)).toContain(booth.id);
    await call(buyer, "get_booth", { boothId: booth.id });
    await call(buyer, "get_store", { storeId });
    await catalogWindowAfter(since);
    const found = await call<{ products: { id: string }[] }>(buyer, "search_products", { keyword });
    expect(found.products.map((p) => p.id)).toEqual([product.id]);
    await call(buyer, "get_product", { productId: product.id });

    // An inquiry and its quote.
    const { inquiry } = await call<{ inquiry: { id: string } }>(buyer, "create_inquiry", { productId: product.id, message: "Price for 5?" });
    expect((await call<{ inquiries: { id: string }[] }>(buyer, "list_inquiries")).inquiries.map((i) => i.id)).toContain(inquiry.id);
    expect((await call<{ inquiries: { id: string }[] }>(seller, "list_inquiries", { as: "seller" })).inquiries.map((i) => i.id)).toContain(inquiry.id);
    await call(seller, "respond_inquiry", { inquiryId: inquiry.id, message: "9 each", quotedPrice: 9, currency: "USD", quantity: 5 });

    // Chat with the store by the product alone.
    const sent = await call<{ conversation: { id: string } }>(buyer, "send_message", { productId: product.id, content: "Is it dimmable?" });
    const conversationId = sent.conversation.id;
    expect((await call<{ conversations: { id: string }[] }>(seller, "list_conversations")).conversations.map((c) => c.id)).toContain(conversationId);
    await call(seller, "send_message", { conversationId, content: "Yes" });
    expect((await call<{ messages: unknown[] }>(buyer, "get_conversation", { conversationId })).messages).toHaveLength(2);
    await call(seller, "mark_conversation_read", { conversationId });

    // A requirement, a quote, a counter each way, an acceptance; the inquiry's quote declined.
    const { requirement } = await call<{ requirement: { id: string } }>(buyer, "post_requirement", { title: `Need lamps ${unique()}`, quantity: 10 });
    await call(buyer, "list_my_requirements");
    await call(seller, "list_requirements");
    const quote = await call<{ offer: { id: string } }>(seller, "quote_requirement", {
      requirementId: requirement.id,
      unitPrice: 9,
      currency: "USD",
      quantity: 10,
      productId: product.id,
      message: "Our best",
    });
    await call(buyer, "compare_quotes", { requirementId: requirement.id });
    await call(buyer, "get_offer", { offerId: quote.offer.id });
    const counter = await call<{ offer: { id: string } }>(buyer, "counter_offer", { offerId: quote.offer.id, unitPrice: 8, quantity: 10 });
    const final = await call<{ offer: { id: string } }>(seller, "counter_offer", { offerId: counter.offer.id, unitPrice: 8.5, quantity: 10 });
    const open = await call<{ offers: { id: string; awaitingYou: boolean }[] }>(buyer, "list_offers", { as: "buyer", status: "open" });
    const inquiryQuote = open.offers.find((o) => o.id !== final.offer.id && o.awaitingYou);
    expect(inquiryQuote, "the inquiry's quote is open for the buyer").toBeDefined();
    await call(buyer, "decline_offer", { offerId: inquiryQuote!.id });
    const accepted = await call<{ order: { id: string } }>(buyer, "accept_offer", { offerId: final.offer.id });
    await call(buyer, "close_requirement", { requirementId: requirement.id });
    await call(buyer, "close_inquiry", { inquiryId: inquiry.id });

    // Orders along their way.
    const { order } = await call<{ order: { id: string } }>(buyer, "place_order", { productId: product.id, quantity: 2, idempotencyKey: unique("k") });
    expect((await call<{ orders: { id: string }[] }>(seller, "list_orders", { as: "seller" })).orders.map((o) => o.id)).toEqual(
      expect.arrayContaining([order.id, accepted.order.id]),
    );
    await call(buyer, "get_order", { orderId: order.id });
    await call(seller, "confirm_order", { orderId: order.id });
    await call(seller, "fulfill_order", { orderId: order.id });
    await call(buyer, "cancel_order", { orderId: accepted.order.id });
    const held = await call<{ order: { status: string } }>(aiBuyer, "place_order", { productId: product.id, quantity: 600, reason: "Stock for the season" });
    expect(held.order.status).toBe("pending_guardian_approval");
    expect((await call<{ approvals: unknown[] }>(aiBuyer, "list_approvals")).approvals).toHaveLength(1);

    // Marketplace tasks.
    const { task } = await call<{ task: { id: string } }>(buyer, "create_task", { title: `Photograph lamps ${unique()}` });
    await call(seller, "list_tasks");
    await call(seller, "get_task", { taskId: task.id });
    await call(seller, "claim_task", { taskId: task.id });
    await call(seller, "complete_task", { taskId: task.id, result: "Done: 12 photos" });
    const other = await call<{ task: { id: string } }>(buyer, "create_task", { title: `Translate ${unique()}` });
    await call(buyer, "cancel_task", { taskId: other.task.id });

    // What the store was told, then read.
    const notes = await call<{ notifications: { id: string }[] }>(seller, "list_notifications", { unread: true });
    expect(notes.notifications.length).toBeGreaterThan(0);
    await call(seller, "mark_notifications_read", { notificationIds: notes.notifications.map((n) => n.id) });
    expect((await call<{ unread: number }>(seller, "list_notifications")).unread).toBe(0);

    const missed = tools.map((t) => t.name).filter((name) => !called.has(name));
    expect(missed, "tools this walk did not call").toEqual([]);
  });

  it("answers a failure with isError, the problem's code and detail in text, and no structuredContent", async () => {
    const result = (await buyer.callTool({ name: "get_order", arguments: { orderId: "00000000-0000-4000-8000-000000000000" } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(toolJson<Problem>(result)).toMatchObject({ code: "not_found", status: 404, detail: expect.any(String) });
  });
});
