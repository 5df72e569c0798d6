import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnServer, type OwnServer } from "../support/own-server";

// The demo fair (issue #17) as `npm start` seeds it: suppliers in several countries, every product
// with a picture the server really serves, and booths in both exhibitions.
describe("demo seed", () => {
  let server: OwnServer;
  beforeAll(async () => {
    server = await startOwnServer({ SEED_DEMO: "1" });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("has eight suppliers in eight countries, each with products", async () => {
    const stores = await server.withDb((q) =>
      q<{ username: string; country: string; n: number }>(
        `select u.username, s.country, (select count(*)::int from products p where p.seller_id = s.id and p.deleted_at is null) as n
           from seller_profiles s join users u on u.id = s.user_id where u.username like 'demo\\_seller%'`,
      ),
    );
    expect(stores).toHaveLength(8);
    expect(new Set(stores.map((s) => s.country)).size).toBe(8);
    // demo_seller_2 (the deals' second store) shows only its quoted lamp; every other store a range.
    for (const s of stores) expect(Number(s.n), s.username).toBeGreaterThanOrEqual(s.username === "demo_seller_2" ? 1 : 8);
  });

  it("gives every product, store and booth a picture that is served as an image", async () => {
    const urls = await server.withDb(async (q) => {
      const missing = await q<{ n: number }>(`select count(*)::int as n from products where main_image_url is null or cardinality(images) = 0`);
      expect(Number(missing[0]!.n)).toBe(0);
      const rows = await q<{ url: string }>(
        `select main_image_url as url from products
         union all select logo_url from seller_profiles
         union all select banner_url from seller_profiles
         union all select banner_url from booths
         union all select banner_url from exhibitions`,
      );
      return rows.map((r) => r.url);
    });
    expect(urls.length).toBeGreaterThan(80);
    expect(urls.every((u) => typeof u === "string" && u.startsWith("/uploads/"))).toBe(true);
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) {
      const res = await fetch(`${server.url}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type"), url).toMatch(/^image\/(webp|png)$/);
      const body = new Uint8Array(await res.arrayBuffer());
      // A real WebP file: RIFF....WEBP.
      expect(new TextDecoder().decode(body.slice(8, 12)), url).toBe("WEBP");
    }
  }, 120_000);

  it("has published booths in both exhibitions, with products on show", async () => {
    const expos = await server.withDb((q) =>
      q<{ slug: string; booths: number; shown: number }>(
        `select e.slug,
                (select count(*)::int from booths b where b.exhibition_id = e.id and b.is_published) as booths,
                (select count(*)::int from products p join booths b on b.id = p.booth_id where b.exhibition_id = e.id) as shown
           from exhibitions e order by e.slug`,
      ),
    );
    expect(expos.map((e) => e.slug)).toEqual(["asia-textile-apparel-fair", "global-sourcing-expo-2026"]);
    for (const e of expos) {
      expect(Number(e.booths), e.slug).toBeGreaterThanOrEqual(3);
      expect(Number(e.shown), e.slug).toBeGreaterThan(0);
    }
    const res = await fetch(`${server.url}/api/exhibitions?status=all`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { exhibitions: { slug: string; boothCount: number }[] };
    for (const e of body.exhibitions) expect(e.boothCount, e.slug).toBeGreaterThanOrEqual(3);
  });

  it("has shoutouts, an open task, an open requirement, and demo accounts that sign in", async () => {
    const [counts] = await server.withDb((q) =>
      q<{ shoutouts: number; tasks: number; open: number }>(
        `select (select count(*)::int from shoutouts) as shoutouts,
                (select count(*)::int from tasks where status = 'open') as tasks,
                (select count(*)::int from requirements where status = 'open') as open`,
      ),
    );
    expect(Number(counts!.shoutouts)).toBeGreaterThanOrEqual(5);
    expect(Number(counts!.tasks)).toBeGreaterThanOrEqual(1);
    expect(Number(counts!.open)).toBeGreaterThanOrEqual(1);
    for (const [email, password] of [
      ["demo_seller_de", "demo-supplier-pass"],
      ["demo_seller_2", "demo-seller2-pass"],
      ["demo_buyer", "demo-buyer-pass"],
    ]) {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      expect(res.status, email).toBe(200);
    }
  });

  it("shows featured products with pictures and the newest suppliers on the home page", async () => {
    const res = await fetch(`${server.url}/`, { headers: { "accept-language": "en" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const featured = /data-testid="featured-products"([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
    expect(featured.match(/<img [^>]*src="\/uploads\//g)?.length ?? 0).toBeGreaterThanOrEqual(6);
    expect(html.match(/data-testid="supplier-card"/g)?.length ?? 0).toBeGreaterThanOrEqual(6);
    expect(html).toMatch(/href="\/stores\/[0-9a-f-]{36}"/);
  });
});
