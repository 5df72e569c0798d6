import { describe, expect, it } from "vitest";
import { shapeKeys } from "@/lib/mcp/schema";
import { apiHandlers } from "@/lib/server/api-router";
import { IDEMPOTENCY_ARG } from "@/lib/mcp/dispatch";
import { toolList } from "@/lib/mcp/server";
import { routesOf, TOOLS } from "@/lib/mcp/tools";
import { successSchema } from "@/lib/mcp/output";

describe("MCP tool table", () => {
  it("serves each tool with the very handler the dispatcher serves at its operation's method and path", () => {
    const served = new Map(apiHandlers().map(({ method, handler }) => [`${method} ${handler.op.path}`, handler]));
    for (const tool of TOOLS) {
      for (const handler of routesOf(tool)) {
        const { op } = handler;
        expect(served.get(`${op.method} ${op.path}`), `${tool.name}: ${op.method} ${op.path}`).toBe(handler);
      }
    }
  });

  it("has no argument that could go to two places", () => {
    for (const tool of TOOLS) {
      for (const { op } of routesOf(tool)) {
        const parts = [
          shapeKeys(op.params),
          shapeKeys(op.query),
          op.query ? shapeKeys(op.body).filter((k) => !shapeKeys(op.query).includes(k)) : shapeKeys(op.body),
        ];
        const all = parts.flat();
        expect(new Set(all).size, tool.name).toBe(all.length);
        expect(all, tool.name).not.toContain(IDEMPOTENCY_ARG);
        if ("by" in tool.route) expect(all, tool.name).not.toContain(tool.route.by);
      }
    }
  });

  it("lists object input schemas with the operation's fields", () => {
    const tools = new Map(toolList().map((t) => [t.name, t]));
    expect(tools.size).toBe(TOOLS.length);
    for (const t of tools.values()) expect(t.inputSchema.type).toBe("object");
    expect(Object.keys(tools.get("search_products")!.inputSchema.properties!)).toEqual(expect.arrayContaining(["keyword", "category", "minPrice", "maxPrice"]));
    expect(tools.get("create_inquiry")!.inputSchema.required).toEqual(expect.arrayContaining(["productId", "message"]));
    expect(tools.get("create_product")!.inputSchema.required).toEqual(expect.arrayContaining(["title", "price", "currency", "category"]));
    expect(tools.get("get_product")!.annotations?.readOnlyHint).toBe(true);
    expect(tools.get("place_order")!.annotations?.readOnlyHint).toBe(false);
  });

  it("describes every argument and names ids <thing>Id, never bare id", () => {
    for (const t of toolList()) {
      for (const [name, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        expect(name, t.name).not.toBe("id");
        expect(name, t.name).not.toBe("ids");
        expect((schema as { description?: string }).description, `${t.name}.${name}`).toMatch(/\w/);
      }
      for (const r of t.inputSchema.required ?? []) expect(t.inputSchema.properties, `${t.name} requires ${r}`).toHaveProperty(r);
    }
    const tools = new Map(toolList().map((t) => [t.name, t]));
    expect(tools.get("get_product")!.inputSchema.required).toEqual(["productId"]);
    expect(tools.get("accept_offer")!.inputSchema.required).toEqual(["offerId"]);
    expect(Object.keys(tools.get("mark_notifications_read")!.inputSchema.properties!)).toContain("notificationIds");
  });

  it("gives every tool an object outputSchema made from its operation's documented success schema", () => {
    for (const t of toolList()) {
      expect(t.outputSchema?.type, t.name).toBe("object");
      const tool = TOOLS.find((d) => d.name === t.name)!;
      for (const { op } of routesOf(tool)) expect(successSchema(op), `${t.name}: ${op.method} ${op.path}`).toBeDefined();
    }
    const product = toolList().find((t) => t.name === "get_product")!.outputSchema!;
    expect(product.required).toContain("product");
    expect(toolList().find((t) => t.name === "list_inquiries")!.outputSchema!.anyOf).toHaveLength(2);
  });
});
