// docs/agents.md, run (issue #16): every snippet of the agent developers' page, in the page's order,
// against the test server. Shell snippets share their variables as one reader's terminal would; the
// socket and MCP programs run as written with the values the shell made; the client configurations
// are read as their clients read them and connected with. The test plays the store where the page
// waits for one (the quote the MCP agent accepts).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, catalogWindowAfter, createProduct, createSeller, unique } from "../support/api";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const root = path.resolve(__dirname, "../..");
type Snippet = { lang: string; code: string; line: number };

function snippets(): Snippet[] {
  const text = readFileSync(path.join(root, "docs/agents.md"), "utf8");
  const out: Snippet[] = [];
  const fence = /^```(\w+)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) out.push({ lang: m[1]!, code: m[2]!, line: text.slice(0, m.index).split("\n").length });
  return out;
}

type Ran = { code: number | null; stdout: string; stderr: string };

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("docs/agents.md, every snippet run", () => {
  const all = snippets();
  const dir = mkdtempSync(path.join(tmpdir(), "agents-doc-"));
  // Programs resolve `ws` and the MCP SDK from the project's node_modules, as in a reader's project.
  const progDir = path.join(root, "node_modules", ".cache", "agents-doc");
  const state = path.join(dir, "state.sh");
  const names = new Set<string>();
  const env: Record<string, string> = {};
  const outputs: string[] = [];
  let seller: Awaited<ReturnType<typeof createSeller>>;
  let productId = "";

  beforeAll(async () => {
    if (!existsSync(progDir)) mkdirSync(progDir, { recursive: true });
    seller = await createSeller();
    const word = unique("lamp");
    const before = Date.now();
    productId = (
      await createProduct(seller.token, { title: `USB-C LED desk lamp ${word}`, price: 12.5, currency: "USD", moq: 10, keywords: [word, "desk lamp"] })
    ).id;
    await catalogWindowAfter(before);
    Object.assign(env, { BASE: baseUrl(), ME: unique("guard"), QUERY: word });
    for (const s of all.filter((x) => x.lang === "bash")) for (const m of s.code.matchAll(/^\s*([A-Z][A-Z0-9_]*)=/gm)) names.add(m[1]!);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** One shell snippet, with the variables and functions the ones before it left. */
  async function shell(s: Snippet): Promise<string> {
    const script = [
      "set -euo pipefail",
      `[ -f ${state} ] && source ${state}`,
      s.code,
      `{ declare -p ${[...names].join(" ")} 2>/dev/null || true; declare -f; } > ${state}.next && mv ${state}.next ${state}`,
    ].join("\n");
    const r = await run("bash", ["-c", script], env, dir);
    expect(r.code, `snippet at docs/agents.md:${s.line} failed:\n${r.stderr}\n${r.stdout}`).toBe(0);
    return r.stdout;
  }

  /** A variable a shell snippet set. */
  async function shellVar(name: string): Promise<string> {
    const r = await run("bash", ["-c", `source ${state}; printf %s "$${name}"`], {}, dir);
    return r.stdout;
  }

  it("has the snippets it promises", () => {
    expect(all.filter((s) => s.lang === "bash").length).toBeGreaterThanOrEqual(10);
    expect(all.filter((s) => s.lang === "js")).toHaveLength(2);
    expect(all.filter((s) => s.lang === "json")).toHaveLength(2);
    expect(all.filter((s) => !["bash", "js", "json", "sh"].includes(s.lang))).toEqual([]);
  });

  it("the shell walk-through: accounts, three sign-ins, a key, search, chat, idempotency, tiers, mandate", async () => {
    for (const s of all.filter((x) => x.lang === "bash")) outputs.push(await shell(s));
    const out = outputs.join("\n");
    const agent = `${env.ME}_AI_BUYER`;
    expect(out.split("\n").filter((l) => l === agent)).toHaveLength(2); // the token's and the credentials callback's /me
    expect(out).toContain("true"); // the cookie session is the AI account's
    expect(out).toContain("AI_BUYER");
    expect(out).toMatch(/^one inquiry: \S+$/m);
    expect(out).toMatch(/^RateLimit-Policy: \d+;w=\d+/im);
    expect(out).toMatch(/^RateLimit: limit=\d+, remaining=\d+, reset=\d+/im);
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toMatchObject({ mandateCurrency: "EUR", orderApprovalThreshold: 5000, monthlyBudget: 20000 });
    expect(await shellVar("PRODUCT")).toBe(productId);

    // What the store sees: the agent's message about its product, marked as sent by an AI.
    const convs = await api<{ conversations: { id: string; product: { id: string } | null }[] }>("/api/chat/conversations", { token: seller.token });
    expect(convs.body.conversations.some((c) => c.product?.id === productId)).toBe(true);
    const inquiries = await api<{ inquiries: { id: string }[] }>("/api/seller/inquiries", { token: seller.token });
    expect(inquiries.body.inquiries).toHaveLength(1);
  });

  it("the socket program: authenticated by the key, its message acknowledged with its clientId", async () => {
    const [socket] = all.filter((s) => s.lang === "js");
    const file = path.join(progDir, `socket-${unique()}.mjs`);
    writeFileSync(file, socket!.code);
    const r = await run(process.execPath, [file], { BASE: env.BASE!, KEY: await shellVar("KEY"), PRODUCT: productId }, root);
    rmSync(file, { force: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^stored as \S+ in conversation \S+$/m);
  });

  it("the client configurations connect as written, with a key in place of the placeholder", async () => {
    const key = await shellVar("KEY");
    const configs = all
      .filter((s) => s.lang === "json")
      .map((s) => JSON.parse(s.code) as Record<string, Record<string, { url: string; headers: Record<string, string> }>>);
    const servers = configs.map((c) => (c.mcpServers ?? c.servers)!["expo-trade"]!);
    const cli = all.find((s) => s.lang === "sh")!.code.match(/--transport http expo-trade (\S+) --header "([^:]+): ([^"]+)"/)!;
    servers.push({ url: cli[1]!, headers: { [cli[2]!]: cli[3]! } });
    for (const server of servers) {
      expect(server.url).toBe("http://localhost:3000/mcp");
      expect(server.headers.Authorization).toBe("Bearer YOUR_API_KEY");
      const headers = Object.fromEntries(Object.entries(server.headers).map(([k, v]) => [k, v.replace("YOUR_API_KEY", key)]));
      const client = new Client({ name: "agents-doc", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url.replace("http://localhost:3000", env.BASE!)), { requestInit: { headers } }));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_products", "send_message", "create_inquiry", "list_offers", "accept_offer"]));
      await client.close();
    }
  });

  it("the MCP agent finds the product, asks the store, receives the quote and places the order", async () => {
    const mcp = all.filter((s) => s.lang === "js")[1]!;
    const file = path.join(progDir, `mcp-${unique()}.mjs`);
    writeFileSync(file, mcp.code);
    const known = new Set((await api<{ inquiries: { id: string }[] }>("/api/seller/inquiries", { token: seller.token })).body.inquiries.map((i) => i.id));
    const agent = run(process.execPath, [file], { BASE: env.BASE!, KEY: await shellVar("KEY"), QUERY: env.QUERY! }, root, 45_000);

    // The store answers the new inquiry with a quote once it arrives.
    let inquiryId: string | undefined;
    for (let i = 0; i < 100 && !inquiryId; i++) {
      const list = await api<{ inquiries: { id: string }[] }>("/api/seller/inquiries", { token: seller.token });
      inquiryId = list.body.inquiries.find((x) => !known.has(x.id))?.id;
      if (!inquiryId) await new Promise((r) => setTimeout(r, 200));
    }
    expect(inquiryId).toBeDefined();
    const quote = await api(`/api/seller/inquiries/${inquiryId}/respond`, {
      token: seller.token,
      json: { message: "20 pieces at 11.90 USD, shipped in 5 days.", quotedPrice: 11.9, currency: "USD", quantity: 20 },
    });
    expect(quote.status).toBe(201);

    const r = await agent;
    rmSync(file, { force: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`at 12.5 USD, MOQ 10`);
    expect(r.stdout).toContain("quote: 20 x 11.9 USD");
    const orderId = r.stdout.match(/^order (\S+): placed, total 238 USD$/m)?.[1];
    expect(orderId, r.stdout).toBeDefined();
    const order = await api<{ order: { unitPrice: number; quantity: number; sentByAI: boolean; offerId: string | null; productId: string } }>(
      `/api/orders/${orderId}`,
      {
        token: seller.token,
      },
    );
    expect(order.body.order).toMatchObject({ unitPrice: 11.9, quantity: 20, sentByAI: true, productId });
    expect(order.body.order.offerId).not.toBeNull();
  });
});
