import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, createProduct, createSeller, unique, useServer } from "../support/api";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { localizedPath } from "@/lib/i18n/metadata";
import { LOCALES } from "@/lib/i18n/locales";

// /sitemap.xml is a sitemap index (sitemaps.org) over child sitemaps cut into stable id chunks
// (lib/services/seo). A server of this file's own with SITEMAP_CHILD_SIZE=30: two pages (15 locales
// each) per child, so a handful of products spreads over several children.
const CHILD_URLS = 30;

type Doc = { status: number; headers: Headers; text: string };
let server: OwnServer;
let origin: string;

async function get(path: string, headers: Record<string, string> = {}, base = server.url): Promise<Doc> {
  const res = await fetch(`${base}${path}`, { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => unescapeXml(m[1]!));
const W3C = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?Z";
const INDEX_SHAPE =
  /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n(<sitemap><loc>[^<]+<\/loc><\/sitemap>\n)+<\/sitemapindex>\n$/;
const URLSET_SHAPE = new RegExp(
  `^<\\?xml version="1\\.0" encoding="UTF-8"\\?>\\n<urlset xmlns="http://www\\.sitemaps\\.org/schemas/sitemap/0\\.9">\\n(<url><loc>[^<]+</loc>(<lastmod>${W3C}</lastmod>)?</url>\\n)*</urlset>\\n$`,
);

/** The index's children by name, each fetched: name -> { etag, locs }. */
async function crawl(base = server.url) {
  const index = await get("/sitemap.xml", {}, base);
  expect(index.status, index.text).toBe(200);
  expect(index.headers.get("content-type")).toMatch(/^application\/xml/);
  expect(index.text).toMatch(INDEX_SHAPE);
  const children = new Map<string, { etag: string; locs: string[] }>();
  for (const loc of locs(index.text)) {
    expect(loc.startsWith(`${origin}/sitemaps/`), loc).toBe(true);
    const path = loc.slice(origin.length);
    const child = await get(path, {}, base);
    expect(child.status, `${path}: ${child.text}`).toBe(200);
    expect(child.text).toMatch(URLSET_SHAPE);
    const urls = locs(child.text);
    expect(urls.length).toBeLessThanOrEqual(50_000);
    if (!path.endsWith("/static.xml")) expect(urls.length, path).toBeLessThanOrEqual(CHILD_URLS);
    for (const u of urls) expect(u.startsWith(`${origin}/`), u).toBe(true);
    children.set(path.split("/").pop()!, {
      etag: child.headers.get("etag")!,
      locs: urls,
    });
  }
  return { index, children };
}

/** The children listing a page (by its unprefixed path), with how many of its URLs each has. */
function holders(children: Map<string, { locs: string[] }>, pagePath: string): [string, number][] {
  const urls = new Set(LOCALES.map((l) => `${origin}${localizedPath(l, pagePath)}`));
  const out: [string, number][] = [];
  for (const [name, c] of children) {
    const n = c.locs.filter((u) => urls.has(u)).length;
    if (n) out.push([name, n]);
  }
  return out;
}

const productChildren = (children: Map<string, unknown>) =>
  [...children.keys()].filter((n) => n.startsWith("products-")).sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));

beforeAll(async () => {
  server = await startOwnServer({ SITEMAP_CHILD_SIZE: String(CHILD_URLS) });
  useServer(server.url);
  origin = `http://localhost:${new URL(server.url).port}`;
}, 300_000);
afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

describe("the sitemap index", () => {
  let seller: Awaited<ReturnType<typeof createSeller>>;
  const ids: string[] = [];

  it("lists every public page in every locale, in children of at most SITEMAP_CHILD_SIZE URLs", async () => {
    seller = await createSeller();
    for (let i = 0; i < 5; i++) ids.push((await createProduct(seller.token)).id);
    const admin = await adminToken();
    const ex = await api<{ exhibition: { slug: string } }>("/api/exhibitions", {
      token: admin,
      json: {
        name: `Fair ${unique()}`,
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(ex.status).toBe(201);
    const booth = await api<{ booth: { id: string } }>("/api/booths", {
      token: seller.token,
      json: { name: "Hall B" },
    });
    expect(booth.status).toBe(201);
    const draft = booth.body.booth.id;
    const shown = await api<{ booth: { id: string } }>("/api/booths", {
      token: seller.token,
      json: { name: "Hall C" },
    });
    expect(
      (
        await api("/api/booths", {
          method: "PUT",
          token: seller.token,
          json: { boothId: shown.body.booth.id, isPublished: true },
        })
      ).status,
    ).toBe(200);

    const { children } = await crawl();
    expect(holders(children, "/")).toEqual([["static.xml", LOCALES.length]]);
    expect(holders(children, `/exhibitions/${ex.body.exhibition.slug}`)).toEqual([[expect.stringMatching(/^exhibitions-\d+\.xml$/), LOCALES.length]]);
    expect(holders(children, `/stores/${seller.storeId}`)).toEqual([[expect.stringMatching(/^stores-\d+\.xml$/), LOCALES.length]]);
    expect(holders(children, `/booths/${shown.body.booth.id}`)).toEqual([[expect.stringMatching(/^booths-\d+\.xml$/), LOCALES.length]]);
    expect(holders(children, `/booths/${draft}`)).toEqual([]);
    // Five products, two a child, in id order: each in exactly one child, in all 15 locales.
    const names = productChildren(children);
    expect(names).toEqual(["products-0.xml", "products-1.xml", "products-2.xml"]);
    expect(ids.map((id) => holders(children, `/products/${id}`))).toEqual([0, 0, 1, 1, 2].map((k) => [[`products-${k}.xml`, LOCALES.length]]));
    // Every URL once, each product URL with its lastmod.
    const all = [...children.values()].flatMap((c) => c.locs);
    expect(new Set(all).size).toBe(all.length);
  });

  it("puts a new product in the last child and leaves the other children's ETags alone", async () => {
    const before = (await crawl()).children;
    ids.push((await createProduct(seller.token)).id);
    const after = (await crawl()).children;
    expect(holders(after, `/products/${ids[5]}`)).toEqual([["products-2.xml", LOCALES.length]]);
    expect(after.get("products-2.xml")!.etag).not.toBe(before.get("products-2.xml")!.etag);
    for (const name of ["static.xml", "products-0.xml", "products-1.xml", "booths-0.xml", "stores-0.xml", "exhibitions-0.xml"])
      expect(after.get(name)!.etag, name).toBe(before.get(name)!.etag);

    // The last child is full: the next product opens a new one.
    ids.push((await createProduct(seller.token)).id);
    const grown = (await crawl()).children;
    expect(productChildren(grown)).toEqual(["products-0.xml", "products-1.xml", "products-2.xml", "products-3.xml"]);
    expect(holders(grown, `/products/${ids[6]}`)).toEqual([["products-3.xml", LOCALES.length]]);
    expect(grown.get("products-2.xml")!.etag).toBe(after.get("products-2.xml")!.etag);
  });

  it("drops a hidden or deleted product from its own child only", async () => {
    const before = (await crawl()).children;
    expect(
      (
        await api(`/api/products/${ids[2]}`, {
          method: "PUT",
          token: seller.token,
          json: { isHidden: true },
        })
      ).status,
    ).toBe(200);
    const hidden = (await crawl()).children;
    expect(holders(hidden, `/products/${ids[2]}`)).toEqual([]);
    expect(holders(hidden, `/products/${ids[3]}`)).toEqual([["products-1.xml", LOCALES.length]]);
    for (const [name, c] of hidden) {
      if (name === "products-1.xml") expect(c.etag).not.toBe(before.get(name)!.etag);
      else expect(c.etag, name).toBe(before.get(name)!.etag);
    }

    expect(
      (
        await api(`/api/products/${ids[0]}`, {
          method: "DELETE",
          token: seller.token,
        })
      ).status,
    ).toBeLessThan(300);
    const deleted = (await crawl()).children;
    expect(holders(deleted, `/products/${ids[0]}`)).toEqual([]);
    expect(holders(deleted, `/products/${ids[1]}`)).toEqual([["products-0.xml", LOCALES.length]]);
    // The chunks keep their boundaries: hidden and deleted rows still hold their places.
    expect(ids.slice(3).map((id) => holders(deleted, `/products/${id}`)[0]![0])).toEqual([
      "products-1.xml",
      "products-2.xml",
      "products-2.xml",
      "products-3.xml",
    ]);
    for (const [name, c] of deleted) if (name !== "products-0.xml") expect(c.etag, name).toBe(hidden.get(name)!.etag);

    expect(
      (
        await api(`/api/products/${ids[2]}`, {
          method: "PUT",
          token: seller.token,
          json: { isHidden: false },
        })
      ).status,
    ).toBe(200);
    expect(holders((await crawl()).children, `/products/${ids[2]}`)).toEqual([["products-1.xml", LOCALES.length]]);
  });

  it("answers conditional requests with 304 and the same validators", async () => {
    for (const path of ["/sitemap.xml", "/sitemaps/static.xml", "/sitemaps/products-1.xml"]) {
      const first = await get(path);
      const etag = first.headers.get("etag")!;
      const lastModified = first.headers.get("last-modified")!;
      expect(etag).toMatch(/^W\/".+"$/);
      expect(Date.parse(lastModified)).toBeGreaterThan(0);
      expect(first.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
      const again = await get(path);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.text).toBe(first.text);

      const byTag = await get(path, { "if-none-match": etag });
      expect(byTag.status).toBe(304);
      expect(byTag.text).toBe("");
      expect(byTag.headers.get("etag")).toBe(etag);
      expect((await get(path, { "if-none-match": `"other", ${etag}` })).status).toBe(304);
      expect((await get(path, { "if-none-match": '"other"' })).status).toBe(200);
      expect((await get(path, { "if-modified-since": lastModified })).status).toBe(304);
      expect(
        (
          await get(path, {
            "if-modified-since": new Date(Date.parse(lastModified) - 1000).toUTCString(),
          })
        ).status,
      ).toBe(200);
      // If-None-Match wins over If-Modified-Since (RFC 9110).
      expect(
        (
          await get(path, {
            "if-none-match": '"other"',
            "if-modified-since": lastModified,
          })
        ).status,
      ).toBe(200);
      // Without gzip the same document, uncompressed.
      const plain = await get(path, { "accept-encoding": "identity" });
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.text).toBe(first.text);
    }
  });

  it("answers 404 for children that do not exist, and robots.txt names the index", async () => {
    for (const name of ["products-99.xml", "products-01.xml", "nope.xml", "products-1", "static.xml.gz"])
      expect((await get(`/sitemaps/${name}`)).status, name).toBe(404);
    const robots = await get("/robots.txt");
    expect(robots.text).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });
});

describe("through Next's route handlers (API_DIRECT=0)", () => {
  let next: OwnServer;
  beforeAll(async () => {
    next = await startOwnServer({
      SITEMAP_CHILD_SIZE: String(CHILD_URLS),
      API_DIRECT: "0",
    });
  }, 300_000);
  afterAll(async () => {
    await next?.stop();
  });

  it("serves the same index, children and 304s", async () => {
    const nextOrigin = origin;
    origin = `http://localhost:${new URL(next.url).port}`;
    try {
      const { index, children } = await crawl(next.url);
      expect([...children.keys()]).toContain("static.xml");
      const etag = index.headers.get("etag")!;
      expect((await get("/sitemap.xml", { "if-none-match": etag }, next.url)).status).toBe(304);
    } finally {
      origin = nextOrigin;
    }
  });
});
