// One gate for every channel (contract 9.1): the governed operations, driven through every channel
// that reaches each (REST, the /api-less alias, MCP, the chat socket, the web pages) by an AI account
// with the permission off and then on, gets the same decision on each channel and leaves one audit
// row per call with the same action: a refusal (permission_denied) while off, a success while on.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Permission } from "@/lib/ai/permissions";
import { api, baseUrl, createGuardianWithAi, createProduct, createSeller, createUser, credentialsSignIn, login, someCategory } from "../support/api";
import { createApiKey, mcpClient, toolJson, type ToolResult } from "../support/mcp";
import { chatSocket, sleep } from "../support/ws";

type Verdict = "refused" | "allowed";
type Agent = { aiUserId: string; token: string; mcp: Client; cookie: string };
type Probe = (a: Agent) => Promise<Verdict>;

let g: Awaited<ReturnType<typeof createGuardianWithAi>>;
let buyer: Agent;
let seller: Agent;
let productId: string;
let ownProductId: string;
let strangerId: string;
let categoryId: string;
let inquiryId: string;

const restVerdict = (res: { status: number; body: Record<string, unknown> | null }): Verdict =>
  res.status === 403 && res.body?.code === "permission_denied"
    ? "refused"
    : res.status < 400
      ? "allowed"
      : (`${res.status} ${String(res.body?.code)}` as Verdict);

/** The same call without `/api`: an API request (it carries a Bearer token), so answered by the API. */
const alias = (path: string) => path.replace(/^\/api\//, "/");

async function tool(a: Agent, name: string, args: Record<string, unknown>): Promise<Verdict> {
  const r = (await a.mcp.callTool({ name, arguments: args })) as ToolResult;
  if (!r.isError) return "allowed";
  const code = toolJson<{ code?: string }>(r).code;
  return code === "permission_denied" ? "refused" : (`mcp ${String(code)}` as Verdict);
}

async function agent(username: string, aiUserId: string): Promise<Agent> {
  const token = await login(username, g.aiPassword);
  const mcp = await mcpClient((await createApiKey(token, `matrix ${username}`)).secret);
  const cookie = (await credentialsSignIn(username, g.aiPassword)).sessionCookie!;
  return { aiUserId, token, mcp, cookie };
}

const rest = (method: string, path: string | (() => string), body?: () => unknown) => {
  const at = () => (typeof path === "string" ? path : path());
  return {
    rest: (a: Agent) => api(at(), { method, token: a.token, json: body?.() }).then(restVerdict),
    alias: (a: Agent) => api(alias(at()), { method, token: a.token, json: body?.() }).then(restVerdict),
  };
};

const ROWS: { permission: Permission; who: () => Agent; channels: Record<string, Probe> }[] = [
  {
    permission: "product.browse",
    who: () => buyer,
    channels: {
      ...rest("GET", "/api/products/search?q=matrix"),
      mcp: (a) => tool(a, "search_products", { q: "matrix" }),
      page: async (a) => {
        const res = await fetch(`${baseUrl()}/search?q=matrix`, { headers: { cookie: a.cookie }, redirect: "manual" });
        return res.status === 403 ? "refused" : res.status === 200 ? "allowed" : (`page ${res.status}` as Verdict);
      },
    },
  },
  {
    permission: "chat.send",
    who: () => buyer,
    channels: {
      ...rest("POST", "/api/chat/messages", () => ({ to: strangerId, content: "matrix hello" })),
      mcp: (a) => tool(a, "send_message", { to: strangerId, content: "matrix hello" }),
      socket: async (a) => {
        const s = await chatSocket(a.token);
        s.send({ type: "message", to: strangerId, content: "matrix hello", ref: "m" });
        const f = await s.waitFor((x) => x.ref === "m");
        s.close();
        return f.type === "ack" ? "allowed" : f.code === "permission_denied" ? "refused" : (`socket ${String(f.code)}` as Verdict);
      },
    },
  },
  {
    permission: "chat.read",
    who: () => buyer,
    channels: {
      ...rest("GET", "/api/chat/conversations"),
      mcp: (a) => tool(a, "list_conversations", {}),
      // Opening the socket is reading (audited); a message to the agent arrives only while allowed.
      socket: async (a) => {
        const s = await chatSocket(a.token);
        const stranger = await createUser();
        await api("/api/chat/messages", { token: await login(stranger.username, stranger.password), json: { to: a.aiUserId, content: "for the agent" } });
        await sleep(400);
        const got = s.all("message").some((f) => f.content === "for the agent");
        const told = s.frames.some((f) => f.type === "error" && f.code === "permission_denied");
        s.close();
        return got && !told ? "allowed" : !got && told ? "refused" : ("socket inconsistent" as Verdict);
      },
    },
  },
  {
    permission: "inquiry.create",
    who: () => buyer,
    channels: {
      ...rest("POST", "/api/buyer/inquiries", () => ({ productId, message: "Matrix inquiry over a channel" })),
      mcp: (a) => tool(a, "create_inquiry", { productId, message: "Matrix inquiry over MCP" }),
    },
  },
  {
    permission: "order.place",
    who: () => buyer,
    channels: {
      ...rest("POST", "/api/orders", () => ({ productId, quantity: 1 })),
      mcp: (a) => tool(a, "place_order", { productId, quantity: 1 }),
    },
  },
  {
    permission: "task.create",
    who: () => buyer,
    channels: rest("POST", "/api/marketplace/tasks", () => ({ title: "Matrix task" })),
  },
  {
    permission: "order.view",
    who: () => buyer,
    channels: {
      ...rest("GET", "/api/orders"),
      mcp: (a) => tool(a, "list_orders", {}),
    },
  },
  {
    permission: "shoutout.post",
    who: () => buyer,
    channels: rest("POST", "/api/shoutout", () => ({ content: "Matrix shoutout over a channel" })),
  },
  {
    permission: "product.create",
    who: () => seller,
    channels: {
      ...rest("POST", "/api/products", () => ({ title: "Matrix product", price: 10, currency: "USD", category: categoryId, moq: 1, keywords: ["matrix"] })),
      mcp: (a) =>
        tool(a, "create_product", { title: "Matrix product over MCP", price: 10, currency: "USD", category: categoryId, moq: 1, keywords: ["matrix"] }),
    },
  },
  {
    permission: "inquiry.respond",
    who: () => seller,
    channels: {
      ...rest(
        "POST",
        () => `/api/seller/inquiries/${inquiryId}/respond`,
        () => ({ message: "Matrix reply over a channel" }),
      ),
      mcp: (a) => tool(a, "respond_inquiry", { inquiryId, message: "Matrix reply over MCP" }),
    },
  },
  {
    permission: "booth.edit",
    who: () => seller,
    channels: rest("POST", "/api/booths", () => ({ name: "Matrix booth" })),
  },
  {
    permission: "product.update",
    who: () => seller,
    channels: {
      ...rest(
        "PUT",
        () => `/api/products/${ownProductId}`,
        () => ({ description: "Updated over a channel" }),
      ),
      mcp: (a) => tool(a, "update_product", { productId: ownProductId, description: "Updated over MCP" }),
    },
  },
];

beforeAll(async () => {
  g = await createGuardianWithAi();
  const store = await createSeller();
  productId = (await createProduct(store.token, { title: "Matrix lamp", keywords: ["matrix"] })).id;
  ownProductId = (await createProduct(g.guardianToken, { title: "Guardian lamp", keywords: ["matrix"] })).id;
  strangerId = (await createUser()).id;
  categoryId = (await someCategory()).leaf.id;
  // A stranger's inquiry to the guardian's store, for its AI seller to answer.
  const asker = await createUser();
  const inquiry = await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", {
    token: await login(asker.username, asker.password),
    json: { productId: ownProductId, message: "Matrix question to the store" },
  });
  inquiryId = inquiry.body.inquiry.id;
  buyer = await agent(g.aiBuyer.username, g.aiBuyer.aiUserId);
  seller = await agent(g.aiSeller.username, g.aiSeller.aiUserId);
}, 300_000);

afterAll(async () => {
  await buyer?.mcp.close();
  await seller?.mcp.close();
});

async function auditCounts(a: Agent, permission: Permission) {
  const page = (success: boolean) =>
    api<{ total: number }>(`/api/ai/audit-logs?aiUserId=${a.aiUserId}&action=${permission}&success=${success}&limit=1`, { token: g.guardianToken });
  const [ok, refused] = await Promise.all([page(true), page(false)]);
  return { ok: ok.body.total, refused: refused.body.total };
}

const setPermission = (a: Agent, permission: Permission, isAllowed: boolean) =>
  api("/api/ai/permissions", { method: "PUT", token: g.guardianToken, json: { aiUserId: a.aiUserId, permission, isAllowed } });

describe("one gate for every channel", () => {
  for (const row of ROWS) {
    it(`${row.permission}: ${Object.keys(row.channels).join(", ")} decide alike and audit alike, off and on`, async () => {
      const a = row.who();
      const channels = Object.entries(row.channels);
      for (const allowed of [false, true]) {
        expect((await setPermission(a, row.permission, allowed)).status).toBe(200);
        await sleep(100);
        const before = await auditCounts(a, row.permission);
        const verdicts: Record<string, Verdict> = {};
        for (const [name, probe] of channels) verdicts[name] = await probe(a);
        expect(verdicts).toEqual(Object.fromEntries(channels.map(([name]) => [name, allowed ? "allowed" : "refused"])));
        const after = await auditCounts(a, row.permission);
        // One row per call on every channel, on the same action (a REST page and MCP alike).
        expect({ ok: after.ok - before.ok, refused: after.refused - before.refused }).toEqual(
          allowed ? { ok: channels.length, refused: 0 } : { ok: 0, refused: channels.length },
        );
      }
    });
  }
});
