// MCP strictness (contract 9.5), through the official SDK client: arguments a tool does not list are
// refused, naming each, before anything is done; every tool carries annotations derived from its
// operations' HTTP methods.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createProduct, createSeller, createUser, login } from "../support/api";
import { createApiKey, mcpClient, toolJson, type ToolResult } from "../support/mcp";

type Problem = { code: string; status: number; detail: string; errors: { path: string; message: string }[] };

describe("MCP strictness", () => {
  let client: Client;
  let buyerToken: string;
  let product: { id: string };

  beforeAll(async () => {
    const seller = await createSeller();
    product = await createProduct(seller.token, { price: 10 });
    const buyer = await createUser("BUYER");
    buyerToken = await login(buyer.username, buyer.password);
    client = await mcpClient((await createApiKey(buyerToken, "mcp strict")).secret);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("refuses unknown arguments naming each, as problem details, and does nothing", async () => {
    const search = (await client.callTool({ name: "search_products", arguments: { keyword: "widget", colour: "red", sortBy: "price" } })) as ToolResult;
    expect(search.isError).toBe(true);
    // No structuredContent on a failure: it would have to match the tool's outputSchema.
    expect(search.structuredContent).toBeUndefined();
    const problem = toolJson<Problem>(search);
    expect(problem).toMatchObject({ code: "validation_failed", status: 400 });
    expect(problem.errors.map((e) => e.path)).toEqual(["colour", "sortBy"]);
    expect(problem.detail).toContain("`colour`");
    expect(problem.errors[0]!.message).toContain("keyword");

    const none = (await client.callTool({ name: "get_my_mandate", arguments: { verbose: true } })) as ToolResult;
    expect(none.isError).toBe(true);
    expect(toolJson(none)).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "verbose", message: expect.stringContaining("no arguments") }],
    });

    // A misspelt argument on a write is refused before acting: no order is placed.
    const order = (await client.callTool({ name: "place_order", arguments: { productId: product.id, quantity: 5, qty: 5 } })) as ToolResult;
    expect(order.isError).toBe(true);
    expect(toolJson<Problem>(order).errors.map((e) => e.path)).toEqual(["qty"]);
    const orders = await api<{ orders: unknown[] }>("/api/orders", { token: buyerToken });
    expect(orders.body.orders).toHaveLength(0);

    // The old bare `id` is refused, pointing at the tool's name for it.
    const old = (await client.callTool({ name: "get_product", arguments: { id: product.id } })) as ToolResult;
    expect(old.isError).toBe(true);
    const renamed = toolJson<Problem>(old);
    expect(renamed.detail).toContain("`id` is now `productId`");
    expect(renamed.errors).toEqual([{ path: "id", message: expect.stringContaining("use `productId` instead") }]);

    // The listed arguments alone pass.
    const ok = (await client.callTool({ name: "search_products", arguments: { keyword: "widget", limit: 5 } })) as ToolResult;
    expect(ok.isError).toBeFalsy();
  });

  it("annotates every tool from its operations: GET reads, PUT/DELETE repeat harmlessly, overwrites and endings are destructive", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      const a = tool.annotations ?? {};
      expect(typeof a.readOnlyHint, tool.name).toBe("boolean");
      expect(typeof a.destructiveHint, tool.name).toBe("boolean");
      expect(typeof a.idempotentHint, tool.name).toBe("boolean");
      // The description names the routes called ("Calls GET /api/... or ..."): annotations agree with them.
      const methods = [...(tool.description ?? "").matchAll(/\b(GET|POST|PUT|PATCH|DELETE) \/api\//g)].map((m) => m[1]);
      expect(methods.length, tool.name).toBeGreaterThan(0);
      expect(a.readOnlyHint, tool.name).toBe(methods.every((m) => m === "GET"));
      if (a.readOnlyHint) expect([a.destructiveHint, a.idempotentHint], tool.name).toEqual([false, true]);
      if (methods.includes("DELETE") || methods.includes("PUT") || methods.includes("PATCH")) expect(a.destructiveHint, tool.name).toBe(true);
      if (methods.includes("POST") || methods.includes("PATCH")) expect(a.idempotentHint, tool.name).toBe(false);
    }
    const hints = (name: string) => {
      const a = tools.find((t) => t.name === name)?.annotations;
      return a && [a.readOnlyHint, a.destructiveHint, a.idempotentHint];
    };
    expect(hints("search_products")).toEqual([true, false, true]);
    expect(hints("place_order")).toEqual([false, false, false]);
    expect(hints("update_product")).toEqual([false, true, true]);
    expect(hints("decline_offer")).toEqual([false, true, false]);
  });
});
