// Contract 9.1, bad input answered as bad input: JSON nested past 64 levels (REST, /mcp, the chat
// socket), numbers too large for their column, and a malformed Host header, each a 400, never a 500.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { api, baseUrl, createProduct, createSeller, createUser, createGuardianWithAi, login } from "../support/api";
import { createApiKey } from "../support/mcp";
import { chatSocket } from "../support/ws";

const nest = (levels: number, inner = "1") => "[".repeat(levels) + inner + "]".repeat(levels);
const MONEY_MAX = 999_999_999_999.99;

/** One raw HTTP/1.1 request with exactly these header lines; the status line and body of the answer. */
function rawRequest(path: string, headerLines: string[]): Promise<{ status: number; head: string; body: string }> {
  const { port, hostname } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let out = "";
    socket.on("data", (d: Buffer) => (out += d.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = out.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head, body });
    });
    socket.write(`GET ${path} HTTP/1.1\r\n${headerLines.map((l) => `${l}\r\n`).join("")}Connection: close\r\n\r\n`);
  });
}

describe("JSON nested deeper than 64 levels", () => {
  it("is 400 validation_failed on a REST body, and 64 levels still reach the schema", async () => {
    const { token } = await createSeller();
    const deep = await api("/api/products", { token, body: `{"title":${nest(64)}}`, headers: { "content-type": "application/json" } });
    expect(deep.status).toBe(400);
    expect(deep.body.code).toBe("validation_failed");
    expect(String(deep.body.detail)).toContain("64");
    // 500,000 levels: refused the same way, long before anything walks it.
    const huge = await api("/api/products", { token, body: nest(500_000), headers: { "content-type": "application/json" } });
    expect(huge.status).toBe(400);
    expect(String(huge.body.detail)).toContain("Nested deeper than 64");
    // 64 levels are JSON like any other: the schema answers about the field's type.
    const ok = await api("/api/products", { token, body: `{"title":${nest(63)}}`, headers: { "content-type": "application/json" } });
    expect(ok.status).toBe(400);
    expect(String(ok.body.detail)).not.toContain("Nested");
    expect((ok.body.errors as { path: string }[]).map((e) => e.path)).toContain("title");
    // Brackets inside a string are text.
    const text = await api("/api/products", { token, json: { title: "[".repeat(1000), price: "x" } });
    expect(text.status).toBe(400);
    expect((text.body.errors as { path: string }[]).map((e) => e.path)).toContain("price");
  });

  it("is 400 on /mcp", async () => {
    const { token } = await createSeller();
    const key = await createApiKey(token);
    const res = await fetch(`${baseUrl()}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":${nest(100)}}}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("validation_failed");
  });

  it("is a bad_frame error on the chat socket, which stays open", async () => {
    const user = await createUser();
    const socket = await chatSocket(await login(user.username, user.password));
    socket.send(`{"type":"message","to":${nest(65)}}`);
    const err = await socket.waitFor("error");
    expect(err.code).toBe("bad_frame");
    expect(String(err.message)).toContain("64");
    socket.send({ type: "ping" });
    await socket.waitFor("pong");
    socket.close();
  });
});

describe("numbers too large for their column", () => {
  it("an order whose total overflows numeric(14,2) is 400 naming quantity, and nothing is written", async () => {
    const seller = await createSeller();
    const product = await createProduct(seller.token, { price: MONEY_MAX });
    const buyer = await createUser();
    const token = await login(buyer.username, buyer.password);
    const res = await api("/api/orders", { token, json: { productId: product.id, quantity: 1_000_000_000 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect((res.body.errors as { path: string }[]).map((e) => e.path)).toEqual(["quantity"]);
    const two = await api("/api/orders", { token, json: { productId: product.id, quantity: 2 } });
    expect(two.status).toBe(400);
    const mine = await api<{ orders: unknown[] }>("/api/orders?as=buyer", { token });
    expect(mine.body.orders).toEqual([]);
    // At the column's maximum exactly, the order is placed.
    const one = await api("/api/orders", { token, json: { productId: product.id, quantity: 1 } });
    expect(one.status).toBe(201);
  });

  it.each([
    ["/api/products", "price", (v: number) => ({ title: "Too dear", price: v, currency: "USD", category: "x", moq: 1 })],
    ["/api/marketplace/tasks", "reward", (v: number) => ({ title: "Too rich", reward: v, currency: "USD" })],
    ["/api/buyer/requirements", "budget", (v: number) => ({ title: "Too big", budget: v, currency: "USD" })],
  ] as const)("%s: %s past the column is 400 naming it", async (path, field, body) => {
    const token = path === "/api/products" ? (await createSeller()).token : await createUser().then((u) => login(u.username, u.password));
    for (const v of [1e12, 1e15, 1e300]) {
      const res = await api(path, { token, json: body(v) });
      expect(res.status, `${path} ${field}=${v}`).toBe(400);
      expect((res.body.errors as { path: string }[]).map((e) => e.path)).toContain(field);
    }
  });

  it("a guardian's thresholds past the column are 400 naming the field", async () => {
    const g = await createGuardianWithAi();
    for (const field of ["orderApprovalThreshold", "monthlyBudget"]) {
      const res = await api("/api/ai/accounts", { method: "PATCH", token: g.guardianToken, json: { aiUserId: g.aiBuyer.aiUserId, [field]: 1e12 } });
      expect(res.status, field).toBe(400);
      expect((res.body.errors as { path: string }[]).map((e) => e.path)).toContain(field);
      const max = await api("/api/ai/accounts", { method: "PATCH", token: g.guardianToken, json: { aiUserId: g.aiBuyer.aiUserId, [field]: MONEY_MAX } });
      expect(max.status, field).toBe(200);
    }
  });
});

describe("a malformed Host header", () => {
  const { host } = new URL(baseUrl());
  const BAD = ["a b", "[::1", "x:99999", "x:abc", "1.2.3.999", "a%20b", "[zz::1]", "a/b", "a@b"];

  it.each(BAD)("%j is 400 on the API, /mcp (problem+json), pages and the chat upgrade (plain)", async (bad) => {
    for (const path of ["/api/health", "/api/products?q=x", "/mcp"]) {
      const res = await rawRequest(path, [`Host: ${bad}`]);
      expect(res.status, `${path} Host: ${bad}`).toBe(400);
      expect(res.head.toLowerCase()).toContain("content-type: application/problem+json");
      const problem = JSON.parse(res.body) as { code: string; errors: { path: string }[] };
      expect(problem.code).toBe("validation_failed");
      expect(problem.errors[0]!.path).toBe("Host");
    }
    for (const path of ["/", "/products/x", "/api/auth/csrf"]) expect((await rawRequest(path, [`Host: ${bad}`])).status, `${path} Host: ${bad}`).toBe(400);
    const upgrade = await rawRequest("/ws/chat", [
      `Host: ${bad}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      "Sec-WebSocket-Version: 13",
    ]);
    expect(upgrade.status).toBe(400);
  });

  it("is in the published description: every operation lists the 400 (NextAuth's own included)", async () => {
    const doc = (await api<{ paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }>("/api/openapi")).body;
    const operations = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ name: `${method} ${p}`, op })));
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.filter(({ op }) => !op.responses?.["400"]).map(({ name }) => name)).toEqual([]);
  });

  it("two Host headers are 400; valid ones (name, IPv4, IPv6, port) are served", async () => {
    expect((await rawRequest("/api/health", [`Host: ${host}`, "Host: evil.example"])).status).toBe(400);
    for (const good of [host, "localhost", "127.0.0.1:80", "[::1]:3000", "shop.example.com", "xn--bcher-kva.example"]) {
      expect((await rawRequest("/api/health", [`Host: ${good}`])).status, good).toBe(200);
    }
  });
});
