import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, catalogWindowAfter, createProduct, createSeller, createUser, login, someCategory, unique, useServer } from "../support/api";
import { startOwnServer, type OwnServer } from "../support/own-server";

// Product lists and searches are cached per instance (lib/services/catalog/list-cache.ts) and
// invalidated per change through the catalog feed: contract 9.3 says a committed change shows in
// lists within one second, and the writer's own next read shows it at once. A repeated request is
// answered from the cache (fewer SQL statements, X-Query-Count from DEBUG_QUERY_COUNT).
type Listed = { id: string; title: string; viewCount: number; price: number; seller: { companyName: string } };
type ListBody = { products: Listed[]; total: number; totalRelation: string; facets?: { categories: { id: string; count: number }[] } };

const queries = (headers: Headers) => Number(headers.get("x-query-count"));

async function list(path: string, token?: string) {
  const res = await api<ListBody>(path, { token });
  expect(res.status, res.text).toBe(200);
  return { ...res.body, statements: queries(res.headers), cache: res.headers.get("x-list-cache") };
}

/** Sends a write and returns when its answer (so its commit) arrived. */
async function write(path: string, method: string, token: string, json?: unknown): Promise<number> {
  const res = await api(path, { method, token, json });
  expect(res.status, res.text).toBe(200);
  return Date.now();
}

/** A request sent a window after a write's answer (so its commit) must show the write. */
async function listAfterWindow(path: string, writtenAt: number) {
  await catalogWindowAfter(writtenAt);
  return list(path);
}

/** View counters are written in groups (about once a second): poll until the assertion holds. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// A server (and database) of this file's own: a product written by a test running in parallel could
// change an answer between two requests and turn an expected hit into a (correct) miss.
// A store's own reads skip the cache for a minute after its change instead of 3 s: the tests take the
// exact answer from the seller's read after waiting out the one-second window and reading anonymously,
// which on a loaded machine has taken more than 3 s (the seller's read was then a hit, not the truth).
let server: OwnServer;
beforeAll(async () => {
  server = await startOwnServer({ DEBUG_QUERY_COUNT: "1", OWN_READS_EXACT_SECONDS: "60" });
  useServer(server.url);
}, 300_000);
afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

describe("cached product lists", () => {
  it("serve a repeated query from the cache; show others' changes within a second and the writer's own at once", async () => {
    const seller = await createSeller();
    const word = unique("cachew");
    const product = await createProduct(seller.token, { title: `Lamp ${word}`, keywords: [word], price: 12 });
    const path = `/api/products/search?q=${word}`;

    const first = await list(path);
    expect(first.products.map((p) => p.id)).toEqual([product.id]);
    expect(first.total).toBe(1);
    expect(first.totalRelation).toBe("eq");
    expect(first.facets?.categories).toEqual([expect.objectContaining({ id: product.category, count: 1 })]);
    expect(first.cache).toBe("miss");
    const again = await list(path);
    expect(again.cache).toBe("hit");
    expect(again.products).toEqual(first.products);
    expect(again.facets).toEqual(first.facets);
    expect(again.statements).toBeLessThan(first.statements);

    // A view is counted without invalidating the cached page; the counter shown follows.
    const buyer = await createUser("BUYER");
    const buyerToken = await login(buyer.username, buyer.password);
    expect((await api(`/api/products/${product.id}`, { token: buyerToken })).status).toBe(200);
    // Views are written in groups about once a second (lib/services/catalog/views.ts): poll for it.
    await eventually(async () => expect((await list(path)).products[0]!.viewCount).toBe(first.products[0]!.viewCount + 1));

    // Each change: the writer's own next read shows it at once; anyone's read a second later too.
    let at = await write(`/api/products/${product.id}`, "PUT", seller.token, { title: `Desk lamp ${word}`, price: 15 });
    const mine = await list(path, seller.token);
    expect(mine.cache).toBe("bypass");
    expect(mine.products.map((p) => [p.title, p.price])).toEqual([[`Desk lamp ${word}`, 15]]);
    let now = await listAfterWindow(path, at);
    expect(now.products.map((p) => [p.title, p.price])).toEqual([[`Desk lamp ${word}`, 15]]);

    const second = await createProduct(seller.token, { title: `Shade ${word}`, keywords: [word] });
    at = Date.now();
    expect((await list(path, seller.token)).total).toBe(2);
    now = await listAfterWindow(path, at);
    expect(now.products.map((p) => p.id).sort()).toEqual([product.id, second.id].sort());
    expect(now.total).toBe(2);
    expect(now.facets?.categories.reduce((n, c) => n + c.count, 0)).toBe(2);

    const companyName = `Renamed ${unique()}`;
    at = await write("/api/seller/settings", "PUT", seller.token, { companyName });
    now = await listAfterWindow(path, at);
    expect(new Set(now.products.map((p) => p.seller.companyName))).toEqual(new Set([companyName]));

    at = await write(`/api/products/${second.id}`, "PUT", seller.token, { isHidden: true });
    now = await listAfterWindow(path, at);
    expect(now.products.map((p) => p.id)).toEqual([product.id]);
    // The store itself still lists its hidden product (its own answer, never from the shared cache).
    const own = await list(`/api/products?sellerId=${seller.storeId}&keyword=${word}`, seller.token);
    expect(own.products.map((p) => p.id).sort()).toEqual([product.id, second.id].sort());
    expect((await list(`/api/products?sellerId=${seller.storeId}&keyword=${word}`)).products.map((p) => p.id)).toEqual([product.id]);

    at = await write(`/api/products/${product.id}`, "DELETE", seller.token);
    now = await listAfterWindow(path, at);
    expect(now.products).toEqual([]);
    expect(now.total).toBe(0);
  });

  it("leave an answer cached when a change cannot alter it", async () => {
    const seller = await createSeller();
    const word = unique("cachek");
    const other = unique("cacheo");
    await createProduct(seller.token, { title: `Kettle ${word}`, keywords: [word] });
    const elsewhere = await createProduct(seller.token, { title: `Bottle ${other}`, keywords: [other] });
    // Computed once the feed has passed on these inserts (one computed earlier is recomputed once,
    // since it cannot tell whether it saw them).
    await catalogWindowAfter(Date.now());
    const path = `/api/products/search?q=${word}`;
    expect((await list(path)).cache).toBe("miss");
    expect((await list(path)).cache).toBe("hit");
    // A product this query does not match changes: a request a second later is still a hit.
    let at = await write(`/api/products/${elsewhere.id}`, "PUT", seller.token, { price: 99 });
    expect((await listAfterWindow(path, at)).cache).toBe("hit");
    // One it matches: recomputed.
    at = await write(`/api/products/${elsewhere.id}`, "PUT", seller.token, { keywords: [other, word] });
    const after = await listAfterWindow(path, at);
    expect(after.cache).toBe("miss");
    expect(after.total).toBe(2);
  });
  it("adjusts a cached total and its facets by each change instead of recounting every match, and they stay exact", async () => {
    const seller = await createSeller();
    const word = unique("cachea");
    const [a, b] = [(await someCategory(0)).leaf.id, (await someCategory(1)).leaf.id];
    const p1 = await createProduct(seller.token, { title: `Lamp ${word}`, keywords: [word], category: a });
    const p2 = await createProduct(seller.token, { title: `Shade ${word}`, keywords: [word], category: a });
    await createProduct(seller.token, { title: `Stand ${word}`, keywords: [word], category: b });
    await catalogWindowAfter(Date.now());
    // One product a page: the page changes with each write, the total and facets are what is tested.
    // A second page: a first page is ranked in the very pass that counts (tested below).
    const path = `/api/products/search?q=${word}&limit=1&page=2`;
    const facetsOf = (body: ListBody) => Object.fromEntries((body.facets?.categories ?? []).map((c) => [c.id, c.count]));
    const first = await list(path);
    expect(first.cache).toBe("miss");
    expect([first.total, facetsOf(first)]).toEqual([3, { [a]: 2, [b]: 1 }]);

    // The first two writes recompute the page from its kept candidates, but not the count and facets: two
    // statements by primary key (the candidates' scores, the page's rows; counting again would add the pass
    // over every match), and the same total and facets a full count gives. The last two take out a product
    // ranked after the page (all score 7, newest first: the page shows the second newest) in place: a hit,
    // whose only statement may be its view counters.
    const steps: [() => Promise<number>, number, Record<string, number>, string][] = [
      [async () => (await createProduct(seller.token, { title: `Bulb ${word}`, keywords: [word], category: b }), Date.now()), 4, { [a]: 2, [b]: 2 }, "miss"],
      [() => write(`/api/products/${p1.id}`, "PUT", seller.token, { category: b }), 4, { [a]: 1, [b]: 3 }, "miss"],
      [() => write(`/api/products/${p2.id}`, "PUT", seller.token, { title: "Shade", keywords: ["shade"] }), 3, { [b]: 3 }, "hit"],
      [() => write(`/api/products/${p1.id}`, "DELETE", seller.token), 2, { [b]: 2 }, "hit"],
    ];
    for (const [change, total, facets, cached] of steps) {
      const now = await listAfterWindow(path, await change());
      expect(now.cache).toBe(cached);
      expect([now.total, now.totalRelation, facetsOf(now)]).toEqual([total, "eq", facets]);
      if (cached === "miss") expect(now.statements).toBe(2);
      else expect(now.statements).toBeLessThan(2);
    }
    // The store's own read counts from the database alone: the same figures.
    const own = await list(path, seller.token);
    expect([own.total, facetsOf(own)]).toEqual([2, { [b]: 2 }]);
  });

  it("keeps the facets of a search filtered by category fresh when products of other categories change", async () => {
    const seller = await createSeller();
    const word = unique("cachec");
    const [a, b] = [(await someCategory(0)).leaf.id, (await someCategory(1)).leaf.id];
    await createProduct(seller.token, { title: `Lamp ${word}`, keywords: [word], category: a });
    const inB = await createProduct(seller.token, { title: `Stand ${word}`, keywords: [word], category: b });
    await catalogWindowAfter(Date.now());
    // Facets count every category's matches (the category filter narrows the page and total only).
    const path = `/api/products/search?q=${word}&category=${a}`;
    const facetsOf = (body: ListBody) => Object.fromEntries((body.facets?.categories ?? []).map((c) => [c.id, c.count]));
    const first = await list(path);
    expect([first.total, facetsOf(first)]).toEqual([1, { [a]: 1, [b]: 1 }]);
    expect((await list(path)).cache).toBe("hit");
    // Products outside the filtered category enter, change and leave the query's matches.
    const steps: [() => Promise<number>, Record<string, number>][] = [
      [async () => (await createProduct(seller.token, { title: `Bulb ${word}`, keywords: [word], category: b }), Date.now()), { [a]: 1, [b]: 2 }],
      [() => write(`/api/products/${inB.id}`, "PUT", seller.token, { title: "Stand", keywords: ["stand"] }), { [a]: 1, [b]: 1 }],
    ];
    for (const [change, facets] of steps) {
      const now = await listAfterWindow(path, await change());
      expect([now.total, facetsOf(now)]).toEqual([1, facets]);
    }
  });

  it("answers a first page of a query not asked before in one pass over its matches: fewer statements than a second page", async () => {
    const seller = await createSeller();
    // Two words with the same products: neither's count is cached when its page is asked for.
    const [one, two] = [unique("onepass"), unique("twopass")];
    for (const title of ["Lamp", "Shade", "Stand"]) await createProduct(seller.token, { title: `${title} ${one} ${two}`, keywords: [one, two] });
    await catalogWindowAfter(Date.now());
    const first = await list(`/api/products/search?q=${one}&limit=2`);
    const second = await list(`/api/products/search?q=${two}&limit=2&page=2`);
    expect([first.cache, second.cache]).toEqual(["miss", "miss"]);
    expect(first.statements).toBeLessThan(second.statements);
    expect([first.total, first.totalRelation, second.total, first.products.length, second.products.length]).toEqual([3, "eq", 3, 2, 1]);
    expect(first.products.map((p) => p.id)).not.toContain(second.products[0]!.id);
  });

  it("recomputes a relevance page from its candidates and the products changed since, with the answer every match gives", async () => {
    const seller = await createSeller();
    const word = unique("cacher");
    const made: { id: string }[] = [];
    const other = (await someCategory(1)).leaf.id;
    // Scores differ: the word in the title and the keywords, or in the keywords only.
    for (let i = 0; i < 5; i++)
      made.push(
        await createProduct(seller.token, {
          title: i % 2 ? `Lamp ${word} ${i}` : `Shade ${i}`,
          keywords: [word],
          category: (await someCategory(i % 2)).leaf.id,
        }),
      );
    await catalogWindowAfter(Date.now());
    const path = `/api/products/search?q=${word}&limit=3`;
    expect((await list(path)).cache).toBe("miss");
    const shown = (body: ListBody) => [body.products.map((p) => p.id), body.total, body.facets?.categories.map((c) => [c.id, c.count])];
    // Each step recomputes the page from the hint but one: a product it does not show rising to the score of
    // the page's last product, older than it, leaves the page as it is (and is ranked by its new score later).
    const steps: [() => Promise<number>, "miss" | "hit"][] = [
      [async () => (await createProduct(seller.token, { title: `Desk lamp ${word}`, keywords: [word] }), Date.now()), "miss"],
      [() => write(`/api/products/${made[0]!.id}`, "PUT", seller.token, { title: `Floor lamp ${word}` }), "hit"],
      [() => write(`/api/products/${made[1]!.id}`, "PUT", seller.token, { isHidden: true }), "miss"],
      [() => write(`/api/products/${made[2]!.id}`, "PUT", seller.token, { category: other }), "miss"],
      [() => write(`/api/products/${made[3]!.id}`, "DELETE", seller.token), "miss"],
      [() => write(`/api/products/${made[4]!.id}`, "PUT", seller.token, { price: 77 }), "miss"],
    ];
    for (const [i, [step, state]] of steps.entries()) {
      const now = await listAfterWindow(path, await step());
      expect([i, now.cache]).toEqual([i, state]);
      // The store's own read is computed from every match (its store changed a moment ago).
      const truth = await list(path, seller.token);
      expect(truth.cache).toBe("bypass");
      expect(shown(now)).toEqual(shown(truth));
    }
  });

  it("keeps a ranked page when a product it does not show changes its score but not its side of the page, and ranks it by its new score later", async () => {
    const seller = await createSeller();
    const word = unique("caches");
    // Scores (search-sql.ts termScore): a keyword 4, the title holding the word 2, a whole word 1.
    const p = await createProduct(seller.token, { title: "Stand", description: `a ${word} stand`, keywords: [] }); // 0
    await createProduct(seller.token, { title: "Shade", keywords: [word] }); // 5
    const a = await createProduct(seller.token, { title: `Lamp ${word} a`, keywords: [word] }); // 7
    const b = await createProduct(seller.token, { title: `Lamp ${word} b`, keywords: [word] }); // 7, newer: first
    await catalogWindowAfter(Date.now());
    const path = `/api/products/search?q=${word}&limit=2`;
    const ids = (body: ListBody) => body.products.map((x) => x.id);
    expect(ids(await list(path))).toEqual([b.id, a.id]);
    expect((await list(path)).cache).toBe("hit");
    // p scores 7 now, but is older than a: still after the page's last product. The answer stays.
    let at = await write(`/api/products/${p.id}`, "PUT", seller.token, { title: `Stand ${word}`, keywords: [word] });
    let now = await listAfterWindow(path, at);
    expect(now.cache).toBe("hit");
    // (Not compared with the store's own read here: that read stores its answer, whose candidates would know p's new score.)
    expect(ids(now)).toEqual([b.id, a.id]);
    // a drops to 3 (the word in its title only): the page is computed again, with p (7) above the shade (5).
    at = await write(`/api/products/${a.id}`, "PUT", seller.token, { keywords: [] });
    now = await listAfterWindow(path, at);
    expect(now.cache).toBe("miss");
    expect(ids(now)).toEqual([b.id, p.id]);
    expect(ids(now)).toEqual(ids(await list(path, seller.token)));
  });

  it("takes a new product ranked after its page in place (total and facets move), and computes the page again when one ranks onto it", async () => {
    const seller = await createSeller();
    const word = unique("cachen");
    const [a, b] = [(await someCategory(0)).leaf.id, (await someCategory(1)).leaf.id];
    // Scores (search-sql.ts termScore): the word as a keyword and in the title 7, in the description only 0.
    for (const category of [a, a, b]) await createProduct(seller.token, { title: `Lamp ${word}`, keywords: [word], category });
    await catalogWindowAfter(Date.now());
    const path = `/api/products/search?q=${word}&limit=2`;
    const view = (body: ListBody) => [body.products.map((x) => x.id), body.total, body.totalRelation, body.facets?.categories.map((c) => [c.id, c.count])];
    const first = await list(path);
    expect([first.cache, first.total, (await list(path)).cache]).toEqual(["miss", 3, "hit"]);
    // Newer than every product, but scoring 0: after the page's last (7). Still a hit, with one more in the total and its category
    // (a category with no match yet would need its name: computed again).
    await createProduct(seller.token, { title: "Stand", description: `a ${word} stand`, keywords: [], category: a });
    let now = await listAfterWindow(path, Date.now());
    expect(now.cache).toBe("hit");
    expect(view(now)).toEqual([
      first.products.map((x) => x.id),
      4,
      "eq",
      [
        [a, 3],
        [b, 1],
      ],
    ]);
    expect(view(now)).toEqual(view(await list(path, seller.token)));
    // A new product scoring 7: newest of the best, first on the page.
    const high = await createProduct(seller.token, { title: `Lamp ${word} new`, keywords: [word], category: b });
    now = await listAfterWindow(path, Date.now());
    expect(now.cache).toBe("miss");
    expect(now.products[0]!.id).toBe(high.id);
    // (The store's own read stores its answer: the steps below start from an exact one.)
    expect(view(now)).toEqual(view(await list(path, seller.token)));
    // Another one scoring 0 is taken in place; once it scores 7 it is the newest of the best: first on the page.
    const shelf = await createProduct(seller.token, { title: "Shelf", description: `a ${word} shelf`, keywords: [], category: a });
    now = await listAfterWindow(path, Date.now());
    expect([now.cache, now.total]).toEqual(["hit", 6]);
    now = await listAfterWindow(path, await write(`/api/products/${shelf.id}`, "PUT", seller.token, { title: `Shelf ${word}`, keywords: [word] }));
    expect(now.cache).toBe("miss");
    expect(now.products.map((x) => x.id)).toEqual([shelf.id, high.id]);
    expect(view(now)).toEqual(view(await list(path, seller.token)));
  });

  it("takes a product ranked after its page out in place when it stops matching, and one of the catalog in when it starts", async () => {
    const seller = await createSeller();
    const word = unique("cachet");
    const [a, b] = [(await someCategory(0)).leaf.id, (await someCategory(1)).leaf.id];
    // Scores (search-sql.ts termScore): the word as a keyword and in the title 7, in the description only 0.
    const low = await createProduct(seller.token, { title: "Stand", description: `a ${word} stand`, keywords: [], category: a });
    const other = await createProduct(seller.token, { title: "Shelf", description: "a shelf", keywords: [], category: b });
    for (const category of [a, b]) await createProduct(seller.token, { title: `Lamp ${word}`, keywords: [word], category });
    await catalogWindowAfter(Date.now());
    const path = `/api/products/search?q=${word}&limit=2`;
    const view = (body: ListBody) => [body.products.map((x) => x.id), body.total, body.facets?.categories.map((c) => [c.id, c.count])];
    const first = await list(path);
    expect([first.cache, first.total, (await list(path)).cache]).toEqual(["miss", 3, "hit"]);
    // The stand (score 0, after the page's last) stops matching: still a hit, one fewer in the total and its category.
    let now = await listAfterWindow(path, await write(`/api/products/${low.id}`, "PUT", seller.token, { description: "a stand" }));
    expect([now.cache, now.products.map((x) => x.id), now.total, now.facets?.categories.find((c) => c.id === a)?.count]).toEqual([
      "hit",
      first.products.map((x) => x.id),
      2,
      1,
    ]);
    expect(view(now)).toEqual(view(await list(path, seller.token)));
    // The shelf, older than every match, starts to match (score 0): taken in, one more in the total and its category.
    now = await listAfterWindow(path, await write(`/api/products/${other.id}`, "PUT", seller.token, { description: `a ${word} shelf` }));
    expect([now.cache, now.total]).toEqual(["hit", 3]);
    expect(view(now)).toEqual(view(await list(path, seller.token)));
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
