import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createProduct, createSeller, createUser, login, unique, useServer } from "../support/api";
import { startOwnServer, type OwnServer } from "../support/own-server";

// Product lists and searches are cached per instance (lib/services/catalog/list-cache.ts), valid
// exactly while the catalog's version stays the same: every change a list can show is seen by the
// very next request, and a repeated request is answered from the cache (fewer SQL statements,
// X-Query-Count from DEBUG_QUERY_COUNT).
type Listed = { id: string; title: string; viewCount: number; price: number; seller: { companyName: string } };
type ListBody = { products: Listed[]; total: number; facets?: { categories: { id: string; count: number }[] } };

const queries = (headers: Headers) => Number(headers.get("x-query-count"));

async function list(path: string, token?: string) {
  const res = await api<ListBody>(path, { token });
  expect(res.status, res.text).toBe(200);
  return { ...res.body, statements: queries(res.headers) };
}

// A server (and database) of this file's own: a product written by a test running in parallel would
// bump the catalog's version between two requests and turn an expected hit into a (correct) miss.
let server: OwnServer;
beforeAll(async () => {
  server = await startOwnServer({ DEBUG_QUERY_COUNT: "1" });
  useServer(server.url);
}, 300_000);
afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

describe("cached product lists", () => {
  it("serve a repeated query from the cache and show every change at once", async () => {
    const seller = await createSeller();
    const word = unique("cachew");
    const product = await createProduct(seller.token, { title: `Lamp ${word}`, keywords: [word], price: 12 });
    const path = `/api/products/search?q=${word}`;

    const first = await list(path);
    expect(first.products.map((p) => p.id)).toEqual([product.id]);
    expect(first.total).toBe(1);
    expect(first.facets?.categories).toEqual([expect.objectContaining({ id: product.category, count: 1 })]);
    const again = await list(path);
    expect(again.products).toEqual(first.products);
    expect(again.facets).toEqual(first.facets);
    // The rows, facets and version on a miss; only the version with the view counters on a hit.
    expect(again.statements).toBeLessThan(first.statements);

    // A view is counted live, without invalidating the cached page.
    const buyer = await createUser("BUYER");
    const buyerToken = await login(buyer.username, buyer.password);
    expect((await api(`/api/products/${product.id}`, { token: buyerToken })).status).toBe(200);
    // Views are written in groups about once a second (lib/services/catalog/views.ts): poll for it.
    let viewed = await list(path);
    for (const deadline = Date.now() + 10_000; viewed.products[0]!.viewCount !== first.products[0]!.viewCount + 1 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      viewed = await list(path);
    }
    expect(viewed.products[0]!.viewCount).toBe(first.products[0]!.viewCount + 1);
    expect(viewed.statements).toBe(again.statements);

    // An edit, a second product, a store's new name, hiding, deleting: each seen by the next request.
    expect((await api(`/api/products/${product.id}`, { method: "PUT", token: seller.token, json: { title: `Desk lamp ${word}`, price: 15 } })).status).toBe(200);
    let now = await list(path);
    expect(now.products.map((p) => [p.title, p.price])).toEqual([[`Desk lamp ${word}`, 15]]);

    const second = await createProduct(seller.token, { title: `Shade ${word}`, keywords: [word] });
    now = await list(path);
    expect(now.products.map((p) => p.id).sort()).toEqual([product.id, second.id].sort());
    expect(now.total).toBe(2);
    expect(now.facets?.categories.reduce((n, c) => n + c.count, 0)).toBe(2);

    const companyName = `Renamed ${unique()}`;
    expect((await api("/api/seller/settings", { method: "PUT", token: seller.token, json: { companyName } })).status).toBe(200);
    now = await list(path);
    expect(new Set(now.products.map((p) => p.seller.companyName))).toEqual(new Set([companyName]));

    expect((await api(`/api/products/${second.id}`, { method: "PUT", token: seller.token, json: { isHidden: true } })).status).toBe(200);
    now = await list(path);
    expect(now.products.map((p) => p.id)).toEqual([product.id]);
    // The store itself still lists its hidden product (its own answer, never from the shared cache).
    const own = await list(`/api/products?sellerId=${seller.storeId}&keyword=${word}`, seller.token);
    expect(own.products.map((p) => p.id).sort()).toEqual([product.id, second.id].sort());
    expect((await list(`/api/products?sellerId=${seller.storeId}&keyword=${word}`)).products.map((p) => p.id)).toEqual([product.id]);

    expect((await api(`/api/products/${product.id}`, { method: "DELETE", token: seller.token })).status).toBe(200);
    now = await list(path);
    expect(now.products).toEqual([]);
    expect(now.total).toBe(0);
  });

  it("keeps answers per locale and per query", async () => {
    const seller = await createSeller();
    const word = unique("cachel");
    await createProduct(seller.token, { keywords: [word] });
    const en = await list(`/api/products/search?q=${word}&locale=en`);
    const zh = await list(`/api/products/search?q=${word}&locale=zh`);
    expect(en.products).toHaveLength(1);
    expect(zh.products).toHaveLength(1);
    const names = (b: ListBody) => (b.products[0] as unknown as { categoryName: string }).categoryName;
    expect(names(zh)).not.toBe(names(en));
    expect((await list(`/api/products/search?q=${word}&minPrice=1000`)).products).toEqual([]);
  });
});
