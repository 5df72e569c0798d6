// The page fence (lib/db/page-fence.ts, migration 0029): while nothing a cached page shows is written, a
// hit reads nothing (X-Query-Count 0); a write still shows on the very next request, whoever makes it:
// the app itself, or (PostgreSQL) a connection from outside the app, which waits until the instance has
// let go of the fence. A view counted is not a write of the page. On a server of this file's own, so no
// other file's writes keep the fence away.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createProduct, createSeller, unique, useServer } from "../support/api";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { startServer, type RunningServer } from "../support/server";

const AUTH_SECRET = "page-fence-test-secret-0123456789abcdef";
let server: OwnServer;
beforeAll(async () => {
  server = await startOwnServer({ DEBUG_QUERY_COUNT: "1", AUTH_SECRET });
  useServer(server.url);
}, 300_000);
afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

type Page = { cache: string | null; statements: string | null; title: string | undefined };
async function page(path: string, base = server.url): Promise<Page> {
  const res = await fetch(`${base}${path}`, { redirect: "manual" });
  const html = await res.text();
  expect(res.status).toBe(200);
  return {
    cache: res.headers.get("x-page-cache"),
    statements: res.headers.get("x-query-count"),
    title: /data-testid="product-title">([^<]*)</.exec(html)?.[1],
  };
}

/** Asks until a hit is served without reading its version (the fence is taken within a poll or two). */
async function fenced(path: string, base = server.url): Promise<Page> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const p = await page(path, base);
    if (p.cache === "hit" && p.statements === "0") return p;
    if (Date.now() > deadline) throw new Error(`never served from the fence: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("page fence", () => {
  it("serves a cached page without a statement, and shows a write on the next request", async () => {
    const seller = await createSeller();
    const product = await createProduct(seller.token, { title: `Fenced lamp ${unique()}` });
    const path = `/fr/products/${product.id}`;
    expect((await page(path)).cache).toBe("miss");
    expect((await fenced(path)).title).toBe(product.title);

    // Through the API (this instance's own write): let go before it commits.
    const viaApi = `Lamp via the API ${unique()}`;
    expect((await api(`/api/products/${product.id}`, { method: "PUT", token: seller.token, json: { title: viaApi } })).status).toBe(200);
    const afterApi = await page(path);
    expect([afterApi.cache, afterApi.title]).toEqual(["miss", viaApi]);
    expect((await fenced(path)).title).toBe(viaApi);

    // Straight into the database (PostgreSQL: another connection, as another instance or psql would; it
    // waits until this instance has let go. PGlite: the server's own session, heard by notification).
    const viaSql = `Lamp via SQL ${unique()}`;
    await server.withDb((q) => q("update products set title = $1, updated_at = now() where id = $2", [viaSql, product.id]));
    const afterSql = await page(path);
    expect([afterSql.cache, afterSql.title]).toEqual(["miss", viaSql]);
    expect((await fenced(path)).title).toBe(viaSql);

    // A category renamed (no updated_at of its own) is a write of the page too.
    await server.withDb((q) =>
      q("update categories set names = names || '{}'::jsonb where id = (select category_id from products where id = $1)", [product.id]),
    );
    expect((await page(path)).statements).not.toBe("0");
  });

  it("keeps the fence while only view counters move", async () => {
    const seller = await createSeller();
    const product = await createProduct(seller.token, { title: `Viewed lamp ${unique()}` });
    const path = `/es/products/${product.id}`;
    await page(path);
    await fenced(path);
    await server.withDb((q) => q("update products set view_count = view_count + 5 where id = $1", [product.id]));
    const after = await page(path);
    expect([after.cache, after.statements]).toEqual(["hit", "0"]);
  });
});

describe.runIf(inject("dbKind") === "postgres")("page fence across instances", () => {
  let other: RunningServer;
  beforeAll(async () => {
    // A second instance on the same database and secret, as behind a load balancer: both hold the fence.
    other = await startServer({ DATABASE_URL: server.databaseUrl, AUTH_SECRET, DEBUG_QUERY_COUNT: "1" });
  }, 120_000);
  afterAll(async () => {
    await other?.stop("SIGTERM");
  });

  it("a write through one instance waits until the other has let go, and shows on its next request", async () => {
    const seller = await createSeller();
    const product = await createProduct(seller.token, { title: `Shared lamp ${unique()}` });
    const path = `/de/products/${product.id}`;
    await page(path);
    await page(path, other.url);
    await fenced(path);
    await fenced(path, other.url);

    const title = `Changed on the other instance ${unique()}`;
    useServer(other.url);
    try {
      expect((await api(`/api/products/${product.id}`, { method: "PUT", token: seller.token, json: { title } })).status).toBe(200);
    } finally {
      useServer(server.url);
    }
    const here = await page(path);
    expect([here.cache, here.title]).toEqual(["miss", title]);
    const there = await page(path, other.url);
    expect([there.cache, there.title]).toEqual(["miss", title]);
  });
});
