// The HTML cache of product, booth, store and exhibition pages (lib/pages/page-cache.ts): hits carry
// their own nonce and cookies, any change to what a page shows makes the next request a miss that
// shows it, signed-in visitors never touch the cache, and every view is counted.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminToken, api, baseUrl, createProduct, createSeller, credentialsSignIn, unique } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

type Page = {
  status: number;
  cache: string | null;
  csp: string;
  html: string;
  cookies: string[];
};

async function page(path: string, cookie?: string, base = baseUrl()): Promise<Page> {
  const res = await fetch(`${base}${path}`, {
    headers: cookie ? { cookie } : {},
    redirect: "manual",
  });
  return {
    status: res.status,
    cache: res.headers.get("x-page-cache"),
    csp: res.headers.get("content-security-policy") ?? "",
    html: await res.text(),
    cookies: res.headers.getSetCookie(),
  };
}

/** The product page's own title (its related list shows other titles too). */
const shownTitle = (p: Page) => /data-testid="product-title">([^<]*)</.exec(p.html)?.[1];
const nonceOf = (p: Page) => /'nonce-([^']+)'/.exec(p.csp)?.[1];
const scriptNonces = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => /\bnonce="([^"]*)"/.exec(m[0])?.[1] ?? null);

/** Polls until `read` returns `want` (views are written in groups, about once a second). */
async function eventually<T>(read: () => Promise<T>, want: T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (last !== want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

async function store() {
  const seller = await createSeller();
  const product = await createProduct(seller.token, {
    title: `Lamp ${unique()}`,
  });
  return { seller, product };
}

/** A published booth of the seller's (in the exhibition named, if any) holding the product. */
async function publishedBooth(seller: { token: string }, productId: string, exhibitionName?: string) {
  const booth = await api<{ booth: { id: string } }>("/api/booths", { token: seller.token, json: { name: `Booth ${unique()}`, exhibitionName } });
  expect(booth.status).toBe(201);
  const boothId = booth.body.booth.id;
  expect((await api("/api/booths", { method: "PUT", token: seller.token, json: { boothId, isPublished: true } })).status).toBe(200);
  expect((await api(`/api/products/${productId}`, { method: "PATCH", token: seller.token, json: { boothId } })).status).toBe(200);
  return booth;
}

describe("page cache", () => {
  it("serves a second anonymous request from the cache, with a fresh nonce on every script and its own cookies", async () => {
    const { product } = await store();
    const path = `/zh/products/${product.id}`;
    const first = await page(path);
    expect([first.status, first.cache]).toEqual([200, "miss"]);
    const second = await page(path);
    expect([second.status, second.cache]).toEqual([200, "hit"]);
    expect(second.html).toContain(product.title as string);
    for (const p of [first, second]) {
      const nonce = nonceOf(p);
      expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
      const scripts = scriptNonces(p.html);
      expect(scripts.length).toBeGreaterThan(3);
      // Every script but the JSON-LD data block carries this answer's nonce.
      expect(scripts.filter((n) => n !== nonce)).toEqual([null]);
    }
    expect(nonceOf(second)).not.toBe(nonceOf(first));
    expect(second.html).not.toContain(nonceOf(first)!);
    expect(second.csp.replace(nonceOf(second)!, "N")).toBe(first.csp.replace(nonceOf(first)!, "N"));
    // Every security header of a rendered page is on a cached one too.
    const [rendered, cached] = await Promise.all([fetch(`${baseUrl()}/zh/products/${product.id}?fresh=1`), fetch(`${baseUrl()}${path}`)]);
    expect(cached.headers.get("x-page-cache")).toBe("hit");
    for (const h of [
      "x-content-type-options",
      "referrer-policy",
      "x-frame-options",
      "permissions-policy",
      "cross-origin-opener-policy",
      "cache-control",
      "content-type",
    ]) {
      expect([h, cached.headers.get(h)]).toEqual([h, rendered.headers.get(h)]);
    }

    // Cookies are this visitor's: a new device id for a new visitor, none for one who has it.
    const device = (p: Page) => p.cookies.find((c) => c.startsWith("et_device="))?.split(";")[0];
    const a = await page(path);
    const b = await page(path);
    expect([a.cache, b.cache]).toEqual(["hit", "hit"]);
    expect(device(a)).toBeDefined();
    expect(device(b)).toBeDefined();
    expect(device(a)).not.toBe(device(b));
    expect(device(a)).not.toBe(device(first));
    const known = await page(path, `${device(a)}; NEXT_LOCALE=zh`);
    expect(known.cache).toBe("hit");
    expect(known.cookies).toEqual([]);
  });

  it("shows a change of the product, its store, a related product and its booth on the very next request", async () => {
    const { seller, product } = await store();
    const related = await createProduct(seller.token, {
      title: `Related ${unique()}`,
    });
    const path = `/de/products/${product.id}`;
    const warm = async () => {
      await page(path);
      expect((await page(path)).cache).toBe("hit");
    };
    const changed = async (text: string) => {
      const p = await page(path);
      expect(p.cache).toBe("miss");
      expect(p.html).toContain(text);
    };
    await warm();
    expect((await page(path)).html).toContain(related.title as string);

    const title = `Renamed lamp ${unique()}`;
    expect(
      (
        await api(`/api/products/${product.id}`, {
          method: "PUT",
          token: seller.token,
          json: { title },
        })
      ).status,
    ).toBe(200);
    await changed(title);

    await warm();
    const companyName = `Renamed store ${unique()}`;
    expect(
      (
        await api("/api/seller/settings", {
          method: "PUT",
          token: seller.token,
          json: { companyName },
        })
      ).status,
    ).toBe(200);
    await changed(companyName);

    await warm();
    const relatedTitle = `Related renamed ${unique()}`;
    expect(
      (
        await api(`/api/products/${related.id}`, {
          method: "PUT",
          token: seller.token,
          json: { title: relatedTitle },
        })
      ).status,
    ).toBe(200);
    await changed(relatedTitle);

    const booth = await publishedBooth(seller, product.id);
    await warm();
    const boothName = `Hall B ${unique()}`;
    expect(
      (
        await api("/api/booths", {
          method: "PUT",
          token: seller.token,
          json: { boothId: booth.body.booth.id, name: boothName },
        })
      ).status,
    ).toBe(200);
    await changed(boothName);
  });

  it("reads only the store's newest products for a product page: an older one's change keeps it cached, hiding a shown one brings it in", async () => {
    const seller = await createSeller();
    const older = await createProduct(seller.token, { title: `Older ${unique()}` });
    const newer: { id: string; title?: unknown }[] = [];
    for (let i = 0; i < 5; i++) newer.push(await createProduct(seller.token, { title: `Newer ${i} ${unique()}` }));
    // The newest's related list: the four before it (the store's newest five, less itself).
    const path = `/ja/products/${newer[4]!.id}`;
    const first = await page(path);
    expect(first.cache).toBe("miss");
    for (const p of newer.slice(0, 4)) expect(first.html).toContain(p.title as string);
    expect(first.html).not.toContain(older.title as string);
    expect((await page(path)).cache).toBe("hit");

    // Not on the page, and not among the products that decide what it shows: still a hit.
    const olderTitle = `Older renamed ${unique()}`;
    expect((await api(`/api/products/${older.id}`, { method: "PUT", token: seller.token, json: { title: olderTitle } })).status).toBe(200);
    const after = await page(path);
    expect(after.cache).toBe("hit");
    expect(after.html).not.toContain(olderTitle);

    // One of the shown ones hidden: the next newest visible one, the older product, takes its place.
    expect((await api(`/api/products/${newer[0]!.id}`, { method: "PUT", token: seller.token, json: { isHidden: true } })).status).toBe(200);
    const hidden = await page(path);
    expect(hidden.cache).toBe("miss");
    expect(hidden.html).toContain(olderTitle);
    expect(hidden.html).not.toContain(newer[0]!.title as string);
  });

  it("reads the versions of product pages asked for together in one go, and a change still shows on the next request", async () => {
    const seller = await createSeller();
    const products = [await createProduct(seller.token, { title: `Kettle ${unique()}` }), await createProduct(seller.token, { title: `Teapot ${unique()}` })];
    const paths = products.map((p) => `/es/products/${p.id}`);
    for (const p of paths) {
      await page(p);
      expect((await page(p)).cache).toBe("hit");
    }
    // Many at once: each its own page.
    const together = await Promise.all(Array.from({ length: 24 }, (_, i) => page(paths[i % 2]!)));
    together.forEach((p, i) => {
      expect(p.cache).toBe("hit");
      expect(shownTitle(p)).toBe(products[i % 2]!.title);
    });
    // Requests keep arriving (reads of versions under way at every moment) while the product is
    // renamed: every request sent after the write's answer shows the new title.
    let stop = false;
    const load = Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        while (!stop) await page(paths[i % 2]!);
      }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const title = `Renamed kettle ${unique()}`;
    expect((await api(`/api/products/${products[0]!.id}`, { method: "PUT", token: seller.token, json: { title } })).status).toBe(200);
    const after: Page[] = [];
    for (let wave = 0; wave < 4; wave++) after.push(...(await Promise.all(Array.from({ length: 6 }, () => page(paths[0]!)))));
    stop = true;
    await load;
    for (const p of after) expect(shownTitle(p)).toBe(title);
    const again = await page(paths[0]!);
    expect([again.cache, shownTitle(again)]).toEqual(["hit", title]);
  });

  it("keeps booth, store and exhibition pages exact too", async () => {
    const admin = await adminToken();
    const fair = `Fair ${unique()}`;
    const ex = await api<{ exhibition: { slug: string } }>("/api/exhibitions", {
      token: admin,
      json: {
        name: fair,
        description: "Cached fair",
        startsAt: new Date(Date.now() - 3600_000).toISOString(),
        endsAt: new Date(Date.now() + 86400_000).toISOString(),
      },
    });
    expect(ex.status).toBe(201);
    const { seller, product } = await store();
    const booth = await publishedBooth(seller, product.id, fair);

    const paths = [`/fr/booths/${booth.body.booth.id}`, `/fr/stores/${seller.storeId}`, `/fr/exhibitions/${ex.body.exhibition.slug}`];
    for (const path of paths) {
      expect((await page(path)).status).toBe(200);
      expect((await page(path)).cache).toBe("hit");
    }
    // A product shown on the booth and store pages changes; the booth's new name is on all three.
    const title = `Changed ${unique()}`;
    expect(
      (
        await api(`/api/products/${product.id}`, {
          method: "PUT",
          token: seller.token,
          json: { title },
        })
      ).status,
    ).toBe(200);
    for (const path of paths.slice(0, 2))
      expect(await page(path)).toMatchObject({
        cache: "miss",
        html: expect.stringContaining(title) as unknown,
      });
    const boothName = `Stand ${unique()}`;
    expect(
      (
        await api("/api/booths", {
          method: "PUT",
          token: seller.token,
          json: { boothId: booth.body.booth.id, name: boothName },
        })
      ).status,
    ).toBe(200);
    for (const path of paths)
      expect(await page(path)).toMatchObject({
        cache: "miss",
        html: expect.stringContaining(boothName) as unknown,
      });
    // Hidden: the store page drops it at once.
    expect((await page(paths[1]!)).cache).toBe("hit");
    expect(
      (
        await api(`/api/products/${product.id}`, {
          method: "PUT",
          token: seller.token,
          json: { isHidden: true },
        })
      ).status,
    ).toBe(200);
    const storePage = await page(paths[1]!);
    expect(storePage.cache).toBe("miss");
    expect(storePage.html).not.toContain(title);
  });

  it("never serves or fills the cache for a signed-in visitor", async () => {
    const { seller, product } = await store();
    const path = `/ja/products/${product.id}`;
    const signed = await credentialsSignIn(seller.user.username, seller.user.password);
    expect(signed.sessionCookie).not.toBeNull();
    await page(path);
    expect((await page(path)).cache).toBe("hit");
    const own = await page(path, signed.sessionCookie!);
    expect([own.status, own.cache]).toEqual([200, "bypass"]);
    // A change, then a signed-in render: the next anonymous request must still be a miss.
    const title = `Only for me ${unique()}`;
    expect(
      (
        await api(`/api/products/${product.id}`, {
          method: "PUT",
          token: seller.token,
          json: { title },
        })
      ).status,
    ).toBe(200);
    expect((await page(path, signed.sessionCookie!)).cache).toBe("bypass");
    expect((await page(path, signed.sessionCookie!)).cache).toBe("bypass");
    const anon = await page(path);
    expect(anon.cache).toBe("miss");
    expect(anon.html).toContain(title);
  });

  it("counts one view per page view, cached or not, and per API read", async () => {
    const { seller, product } = await store();
    const path = `/ko/products/${product.id}`;
    const caches = [];
    for (let i = 0; i < 3; i++) caches.push((await page(path)).cache);
    expect(caches).toEqual(["miss", "hit", "hit"]);
    expect((await api(`/api/products/${product.id}`)).status).toBe(200);
    const total = async () =>
      (
        await api<{ total: number }>("/api/analytics/views", {
          token: seller.token,
        })
      ).body.total;
    expect(await eventually(total, 4)).toBe(4);
    const viewCount = async () =>
      (await api<{ product: { viewCount: number } }>(`/api/products/${product.id}`, { token: seller.token })).body.product.viewCount;
    expect(await eventually(viewCount, 4)).toBe(4);
    // The store's own reads count nothing.
    expect(await total()).toBe(4);
  });
});

describe.runIf(inject("dbKind") === "postgres")("page cache across instances", () => {
  let other: RunningServer;
  beforeAll(async () => {
    // A second instance on the same database and secret, as behind a load balancer.
    const secretFile = path.join(inject("dataDir"), "auth-secret");
    const AUTH_SECRET = existsSync(secretFile) ? readFileSync(secretFile, "utf8").trim() : process.env.AUTH_SECRET;
    other = await startServer({
      DATABASE_URL: process.env.DATABASE_URL,
      AUTH_SECRET,
    });
  }, 120_000);
  afterAll(async () => {
    await other?.stop("SIGTERM");
  });

  it("shows a change made through one instance on the next request to the other, and writes its views before it stops", async () => {
    const { seller, product } = await store();
    const path = `/es/products/${product.id}`;
    expect((await page(path, undefined, other.url)).cache).toBe("miss");
    expect((await page(path, undefined, other.url)).cache).toBe("hit");
    const title = `Changed elsewhere ${unique()}`;
    expect(
      (
        await api(`/api/products/${product.id}`, {
          method: "PUT",
          token: seller.token,
          json: { title },
        })
      ).status,
    ).toBe(200);
    const next = await page(path, undefined, other.url);
    expect(next.cache).toBe("miss");
    expect(next.html).toContain(title);
    expect((await page(path, undefined, other.url)).cache).toBe("hit");
    // Four views on the other instance, then it stops at once: its shutdown writes them.
    await other.stop("SIGTERM");
    const total = await api<{ total: number }>("/api/analytics/views", {
      token: seller.token,
    });
    expect(total.body.total).toBe(4);
  });
});
