import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { LOCALES } from "@/lib/i18n/locales";

// Canonical, hreflang, og:url/og:image and JSON-LD name the one configured origin (NEXTAUTH_URL),
// never the host a request came in on: this server listens on 127.0.0.1 and is configured as
// https://fair.example.test, so a relative URL or one built from the Host header fails here.
const ORIGIN = "https://fair.example.test";
let server: OwnServer;
let productId: string;

beforeAll(async () => {
  server = await startOwnServer({ NEXTAUTH_URL: ORIGIN, SEED_DEMO: "1" });
  productId = await server.withDb(async (q) => {
    const [row] = await q<{ id: string }>("select id from products where deleted_at is null and not is_hidden order by created_at limit 1");
    // An upload's path as the catalog stores it (relative): what og:image must make absolute.
    await q("update products set main_image_url = '/uploads/og-test.png', images = array['/uploads/og-test.png'] where id = $1", [row!.id]);
    return row!.id;
  });
}, 300_000);

afterAll(() => server?.stop());

const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1]?.replace(/&amp;/g, "&");
const tags = (html: string, re: RegExp) => [...html.matchAll(re)].map((m) => m[0]);

async function page(path: string): Promise<string> {
  // Accept: text/html, as a browser sends: without it an unprefixed path is an API alias (contract 1).
  const res = await fetch(`${server.url}${path}`, { redirect: "manual", headers: { accept: "text/html" } });
  expect(res.status, path).toBe(200);
  // hreflang lives in the page's head only: no `Link` header repeating it on every answer.
  expect(res.headers.get("link") ?? "", path).not.toContain("hreflang");
  return res.text();
}

describe("absolute page URLs on the configured origin", () => {
  it("a product page in Arabic: canonical, every hreflang with x-default, og:url, og:image and JSON-LD", async () => {
    const html = await page(`/ar/products/${productId}`);
    const canonical = tags(html, /<link[^>]*rel="canonical"[^>]*>/g);
    expect(canonical).toHaveLength(1);
    expect(attr(canonical[0]!, "href")).toBe(`${ORIGIN}/ar/products/${productId}`);

    const alternates = new Map(tags(html, /<link[^>]*rel="alternate"[^>]*hrefLang="[^"]*"[^>]*>/gi).map((t) => [attr(t, "hrefLang"), attr(t, "href")]));
    for (const l of LOCALES) expect(alternates.get(l), l).toBe(l === "en" ? `${ORIGIN}/products/${productId}` : `${ORIGIN}/${l}/products/${productId}`);
    expect(alternates.get("x-default")).toBe(`${ORIGIN}/products/${productId}`);

    const og = (p: string) => tags(html, new RegExp(`<meta[^>]*property="${p}"[^>]*>`, "g")).map((t) => attr(t, "content"));
    expect(og("og:url")).toEqual([`${ORIGIN}/ar/products/${productId}`]);
    const images = og("og:image");
    expect(images.length).toBeGreaterThan(0);
    for (const src of images) expect(src!.startsWith(`${ORIGIN}/uploads/`), src).toBe(true);

    const ld = JSON.parse(html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!) as { url: string; image: string[] };
    expect(ld.url).toBe(`${ORIGIN}/ar/products/${productId}`);
    for (const src of ld.image) expect(src.startsWith(`${ORIGIN}/`), src).toBe(true);
  });

  // /api-docs and /legal/... have no data: Next would prerender them at build time, with the build's origin.
  it.each(["/exhibitions", "/api-docs", "/legal/ai-privacy-policy", "/ko/api-docs"])("%s: canonical and x-default on the origin", async (path) => {
    const html = await page(path);
    expect(attr(tags(html, /<link[^>]*rel="canonical"[^>]*>/g)[0]!, "href")).toBe(`${ORIGIN}${path}`);
    const english = path.replace(/^\/ko/, "");
    expect(html).toMatch(new RegExp(`<link[^>]*hrefLang="x-default"[^>]*href="${ORIGIN}${english}"`, "i"));
  });

  it("favicon, app icons and the web manifest are served and linked", async () => {
    const html = await page("/");
    for (const path of ["/favicon.ico", "/icon.svg", "/apple-icon.png", "/manifest.webmanifest", "/icon-192.png", "/icon-512.png"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
    }
    expect(html).toMatch(/<link[^>]*rel="manifest"[^>]*href="\/manifest.webmanifest"/);
    expect(html).toMatch(/<link[^>]*rel="icon"[^>]*href="\/icon.svg/);
    expect(html).toMatch(/<link[^>]*rel="apple-touch-icon"[^>]*href="\/apple-icon.png/);
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as { name: string; theme_color: string; icons: unknown[] };
    expect(manifest.name).toBe("Expo Trade");
    expect(manifest.theme_color).toMatch(/^#/);
    expect(manifest.icons.length).toBeGreaterThan(1);
  });
});
