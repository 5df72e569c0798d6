import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, baseUrl, createProduct, createSeller, createUser, login, someCategory, unique } from "../support/api";

// No N+1 queries: every list endpoint runs the same number of SQL statements for 5 rows as for
// 25. The server counts the statements of each request (DEBUG_QUERY_COUNT=1, set for the test
// server) and reports them in X-Query-Count.
const LARGE = 25;
type World = Awaited<ReturnType<typeof world>>;
type Probe = {
  name: string;
  path: (w: World, n: number) => string;
  token?: (w: World) => string;
  items: (body: Record<string, unknown>) => unknown[] | undefined;
};

/** Run `tasks` with at most `width` in flight. */
async function limited<T>(tasks: (() => Promise<T>)[], width = 6): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

async function ok<T = Record<string, unknown>>(path: string, init: Parameters<typeof api>[1], status = 201): Promise<T> {
  const res = await api<T>(path, init);
  if (res.status !== status) throw new Error(`${init?.method ?? "POST"} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A seller, a buyer, a guardian with AI accounts and `n` of every listed record between them. */
async function world(n: number, admin: string) {
  const seller = await createSeller();
  const u = await createUser("BUYER");
  const buyer = { user: u, token: await login(u.username, u.password) };
  const g = await createUser("SELLER", { companyName: `Guardian ${unique()}` });
  const guardianToken = await login(g.username, g.password);
  const aiPassword = `ai-${unique()}`;
  // One AI account in the small world, both in the large one.
  const roles = n > 5 ? (["AI_BUYER", "AI_SELLER"] as const) : (["AI_BUYER"] as const);
  const ai: Record<string, { aiUserId: string; username: string }> = {};
  for (const role of roles)
    ai[role] = (
      await ok<{ account: { aiUserId: string; username: string } }>("/api/ai/accounts", { token: guardianToken, json: { role, password: aiPassword } })
    ).account;
  await ok("/api/ai/accounts", { method: "PATCH", token: guardianToken, json: { aiUserId: ai.AI_BUYER!.aiUserId, orderApprovalThreshold: 0 } }, 200);
  const aiBuyerToken = await login(ai.AI_BUYER!.username, aiPassword);

  const fair = `Fair ${unique()}`;
  const now = Date.now();
  const exhibitions = await limited(
    Array.from(
      { length: n },
      (_, i) => () =>
        ok<{ exhibition: { id: string } }>("/api/exhibitions", {
          token: admin,
          json: {
            name: i === 0 ? fair : `${fair} ${i}`,
            description: "x",
            startsAt: new Date(now - 3600_000).toISOString(),
            endsAt: new Date(now + 86400_000).toISOString(),
          },
        }),
    ),
  );
  const products = await limited(
    Array.from({ length: n }, (_, i) => async () => createProduct(seller.token, { category: (await someCategory(i)).leaf.id, keywords: [`k${i}`, "共同"] })),
  );
  const booths = await limited(
    Array.from(
      { length: n },
      (_, i) => () => ok<{ booth: { id: string } }>("/api/booths", { token: seller.token, json: { name: `Booth ${i}`, exhibitionName: fair } }),
    ),
  );
  await limited(booths.map((b) => () => ok("/api/booths", { method: "PUT", token: seller.token, json: { boothId: b.booth.id, isPublished: true } }, 200)));
  await limited(
    products.map((p, i) => () => ok(`/api/products/${p.id}`, { method: "PATCH", token: seller.token, json: { boothId: booths[i]!.booth.id } }, 200)),
  );

  const inquiries = await limited(
    products.map((p) => () => ok<{ inquiry: { id: string } }>("/api/buyer/inquiries", { token: buyer.token, json: { productId: p.id, message: "Price?" } })),
  );
  await limited(
    inquiries.map((q) => () => ok(`/api/seller/inquiries/${q.inquiry.id}/respond`, { token: seller.token, json: { message: "10 USD", quotedPrice: 9 } })),
  );
  await limited(products.map((p) => () => ok("/api/orders", { token: buyer.token, json: { productId: p.id, quantity: 2 } })));
  await limited(products.map((p) => () => ok("/api/orders", { token: aiBuyerToken, json: { productId: p.id, quantity: 1 } })));
  const chats = await limited(
    products.map(
      (p) => () =>
        ok<{ message: { conversationId: string } }>("/api/chat/messages", {
          token: buyer.token,
          json: { to: seller.user.id, productId: p.id, content: "Hello" },
        }),
    ),
  );
  const conversationId = chats[0]!.message.conversationId;
  await limited(
    Array.from({ length: n - 1 }, () => () => ok("/api/chat/messages", { token: seller.token, json: { conversationId, content: "Hi back" } })),
    1,
  );
  await limited(
    Array.from(
      { length: n },
      (_, i) => () => ok("/api/buyer/requirements", { token: buyer.token, json: { title: `Need ${i}`, budget: 100, currency: "USD" } }),
    ),
  );
  await limited(products.map((p) => () => ok("/api/shoutout", { token: buyer.token, json: { content: "Great fair", productId: p.id } })));
  await limited(Array.from({ length: n }, (_, i) => () => ok("/api/marketplace/tasks", { token: buyer.token, json: { title: `Task ${i}` } })));
  await limited(Array.from({ length: Math.min(n, 20) }, (_, i) => () => ok("/api/keys", { token: seller.token, json: { name: `key ${i}` } })));

  const form = new FormData();
  form.append("type", "boothDocument");
  form.append("file", new Blob([Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")], { type: "application/pdf" }), "catalog.pdf");
  const up = await fetch(`${baseUrl()}/api/upload`, { method: "POST", headers: { authorization: `Bearer ${seller.token}` }, body: form });
  const file = (await up.json()) as { url: string };
  await limited(
    products.map(
      (p, i) => () =>
        ok("/api/seller/brochures", {
          token: seller.token,
          json: { title: `Brochure ${i}`, fileUrl: file.url, productIds: [p.id], boothId: booths[i]!.booth.id },
        }),
    ),
  );

  return { seller, buyer, guardianToken, aiBuyer: ai.AI_BUYER!, exhibitionId: exhibitions[0]!.exhibition.id, conversationId };
}

const list = (key: string) => (b: Record<string, unknown>) => b[key] as unknown[] | undefined;
const PROBES: Probe[] = [
  { name: "products list", path: (w) => `/api/products?sellerId=${w.seller.storeId}&limit=100`, items: list("products") },
  {
    name: "products list, keyword + price",
    path: (w) => `/api/products?sellerId=${w.seller.storeId}&keyword=${encodeURIComponent("共同")}&minPrice=1&maxPrice=100&limit=100`,
    items: list("products"),
  },
  {
    name: "product search with facets",
    path: (w) => `/api/products/search?sellerId=${w.seller.storeId}&q=${encodeURIComponent("共同")}&limit=100`,
    items: list("products"),
  },
  { name: "store", path: (w) => `/api/stores/${w.seller.storeId}`, items: (b) => (b.store as { booths: unknown[] }).booths },
  { name: "own booths", path: () => "/api/booths", token: (w) => w.seller.token, items: list("booths") },
  { name: "public booths", path: (w) => `/api/public/booths?exhibitionId=${w.exhibitionId}&limit=100`, items: list("booths") },
  { name: "exhibition with booths", path: (w) => `/api/exhibitions/${w.exhibitionId}`, items: (b) => (b.exhibition as { booths: unknown[] }).booths },
  { name: "exhibitions", path: (_w, n) => `/api/exhibitions?status=all&limit=${n}`, items: list("exhibitions") },
  { name: "buyer inquiries", path: () => "/api/buyer/inquiries?limit=100", token: (w) => w.buyer.token, items: list("inquiries") },
  { name: "seller inquiries", path: () => "/api/seller/inquiries?limit=100", token: (w) => w.seller.token, items: list("inquiries") },
  { name: "orders as buyer", path: () => "/api/orders?as=buyer&limit=100", token: (w) => w.buyer.token, items: list("orders") },
  { name: "orders as seller", path: () => "/api/orders?as=seller&limit=100", token: (w) => w.seller.token, items: list("orders") },
  { name: "conversations", path: () => "/api/chat/conversations?limit=100", token: (w) => w.buyer.token, items: list("conversations") },
  { name: "messages", path: (w) => `/api/chat/messages/${w.conversationId}?limit=100`, token: (w) => w.buyer.token, items: list("messages") },
  { name: "own requirements", path: () => "/api/buyer/requirements?limit=100", token: (w) => w.buyer.token, items: list("requirements") },
  { name: "open requirements", path: (_w, n) => `/api/requirements?limit=${n}`, token: (w) => w.seller.token, items: list("requirements") },
  { name: "shoutouts", path: (_w, n) => `/api/shoutout?limit=${n}`, items: list("shoutouts") },
  { name: "own tasks", path: () => "/api/marketplace/tasks?mine=created&limit=100", token: (w) => w.buyer.token, items: list("tasks") },
  { name: "open tasks", path: (_w, n) => `/api/marketplace/tasks?limit=${n}`, token: (w) => w.seller.token, items: list("tasks") },
  { name: "brochures", path: () => "/api/seller/brochures", token: (w) => w.seller.token, items: list("brochures") },
  { name: "API keys", path: () => "/api/keys?limit=100", token: (w) => w.seller.token, items: list("keys") },
  { name: "AI accounts", path: () => "/api/ai/accounts", token: (w) => w.guardianToken, items: list("accounts") },
  { name: "approvals", path: () => "/api/ai/approvals?limit=100", token: (w) => w.guardianToken, items: list("approvals") },
  { name: "audit log", path: (w) => `/api/ai/audit-logs?aiUserId=${w.aiBuyer.aiUserId}&limit=100`, token: (w) => w.guardianToken, items: list("logs") },
  { name: "public sellers", path: (_w, n) => `/api/sellers/public?limit=${n === 5 ? 1 : 100}`, items: (b) => (b.sellers ?? b.stores) as unknown[] },
  { name: "sellers", path: (_w, n) => `/api/sellers?limit=${n === 5 ? 1 : 100}`, items: (b) => (b.sellers ?? b.stores) as unknown[] },
];

let small: World;
let large: World;

beforeAll(async () => {
  const admin = await adminToken();
  [small, large] = await Promise.all([world(5, admin), world(LARGE, admin)]);
}, 240_000);

/** The statements one request ran (the fewer of two tries: a rare rate-window sweep adds one). */
async function measure(path: string, token?: string) {
  const runs = [];
  for (let i = 0; i < 2; i++) {
    const res = await api(path, { token });
    expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
    const header = res.headers.get("x-query-count");
    expect(header, "the server must run with DEBUG_QUERY_COUNT=1").not.toBeNull();
    // A repeated list is answered from the list cache, often with no statement at all: the
    // statements that matter are those of computing it.
    if (res.headers.get("x-list-cache") !== "hit") runs.push({ queries: Number(header), body: res.body });
  }
  return runs.reduce((a, b) => (b.queries < a.queries ? b : a));
}

describe("SQL statements per list request do not grow with the rows", () => {
  for (const probe of PROBES) {
    it(probe.name, async () => {
      const a = await measure(probe.path(small, 5), probe.token?.(small));
      const b = await measure(probe.path(large, LARGE), probe.token?.(large));
      const rowsA = probe.items(a.body)?.length ?? -1;
      const rowsB = probe.items(b.body)?.length ?? -1;
      // The data really differs in size, so a per-row query would show.
      expect(rowsB, `${probe.name}: rows ${rowsA} vs ${rowsB}`).toBeGreaterThan(rowsA);
      expect(rowsA).toBeGreaterThan(0);
      expect(a.queries).toBeGreaterThan(0);
      expect(b.queries, `${probe.name}: ${a.queries} statements for ${rowsA} rows, ${b.queries} for ${rowsB}`).toBe(a.queries);
    });
  }

  it("categories (reference data) in a handful of statements", async () => {
    for (const path of ["/api/categories", "/api/categories/tree", "/api/categories?locale=zh"]) {
      expect((await measure(path)).queries, path).toBeLessThanOrEqual(3);
    }
  });
});
