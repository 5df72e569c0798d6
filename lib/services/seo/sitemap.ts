// /sitemap.xml as a sitemap index (sitemaps.org) over child sitemaps: the static pages, then each
// kind of public page (exhibitions, published booths, public stores, listed products) in the
// stable id chunks of chunks.ts. Every locale's URL is its own <url> (hreflang lives in each page's
// head; docs/decisions.md, "Sitemaps"), so a chunk of N pages makes N * 15 URLs: the chunk size is
// SITEMAP_CHILD_SIZE / 15 pages, at most 50,000 URLs (3,333 pages, ~10 MB at a 100-character
// origin, far below the protocol's 50 MB).
//
// Each document has a version read with one small statement (the index: the chunk layout; a
// child: count and latest update of its id range) from which its ETag is derived, so a request
// whose validators match costs that statement and nothing else, on every instance alike.
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { localizedPath } from "@/lib/i18n/metadata";
import { LOCALES } from "@/lib/i18n/locales";
import { chunkKey, chunkRows, consistent, KINDS, layout, pathPrefix, type ChunkKey, type Kind } from "./chunks";
import { sitemapIndex, urlset, type UrlEntry } from "./xml";

/** Bump when the documents' shape changes, so no old ETag matches a new body. */
const FORMAT = "sitemap-v1";
export const STATIC_PAGES = ["/", "/search", "/exhibitions", "/stores", "/legal/ai-privacy-policy", "/api-docs"];
/** When STATIC_PAGES last changed: the static child's Last-Modified, the same on every instance. */
const STATIC_SINCE = Date.UTC(2026, 10, 24);

export const origin = () => env().PUBLIC_URL.replace(/\/$/, "");
/** Pages per product/booth/... chunk: the URL budget of one child over the locales of a page. */
export const pagesPerChild = () => Math.max(1, Math.floor(env().SITEMAP_CHILD_SIZE / LOCALES.length));

export type Version = { etag: string; lastModified: number };
export type Built = Version & { xml: string };
/** A document's current version, and how to build it (the body may be newer than `version`). */
export type Sitemap = {
  version: Version | null;
  build: () => Promise<Built | null>;
};

const etag = (...parts: (string | number | null)[]) =>
  `W/"${createHash("sha1")
    .update([FORMAT, origin(), ...parts].join("|"))
    .digest("base64url")
    .slice(0, 27)}"`;

const NAME = /^(?:(static)|(exhibitions|booths|stores|products)-(0|[1-9]\d{0,6}))\.xml$/;
export const childPath = (name: string) => `/sitemaps/${name}`;

function allLocales(path: string, lastmod?: number): UrlEntry[] {
  const base = origin();
  return LOCALES.map((l) => ({
    loc: `${base}${localizedPath(l, path)}`,
    lastmod,
  }));
}

export async function sitemapIndexDocument(db: Db): Promise<Sitemap> {
  const l = await layout(db, pagesPerChild());
  const names = ["static.xml", ...KINDS.flatMap((kind) => Array.from({ length: l.chunks[kind] }, (_, k) => `${kind}-${k}.xml`))];
  const version = {
    etag: etag("index", pagesPerChild(), ...names),
    lastModified: Math.max(STATIC_SINCE, l.lastModified),
  };
  return {
    version,
    build: async () => ({
      ...version,
      xml: sitemapIndex(names.map((n) => `${origin()}${childPath(n)}`)),
    }),
  };
}

const chunkVersion = (size: number, key: ChunkKey): Version => ({
  // Not the upper boundary: a last chunk keeps its rows, and so its ETag, when the next one opens.
  etag: etag(key.range.kind, key.range.k, size, key.range.lo, key.count, key.maxUs),
  lastModified: Math.floor(key.maxUs / 1000),
});

/** A child sitemap by its file name (`static.xml`, `products-3.xml`), or null when there is none. */
export async function childDocument(db: Db, name: string): Promise<Sitemap | null> {
  const m = NAME.exec(name);
  if (!m) return null;
  if (m[1]) {
    const version = {
      etag: etag("static", ...STATIC_PAGES),
      lastModified: STATIC_SINCE,
    };
    return {
      version,
      build: async () => ({
        ...version,
        xml: urlset(STATIC_PAGES.flatMap((p) => allLocales(p))),
      }),
    };
  }
  const kind = m[2] as Kind;
  const k = Number(m[3]);
  const size = pagesPerChild();
  const key = await chunkKey(db, size, kind, k);
  if (!key) {
    // Boundaries this instance has not derived yet (a fresh process): the layout finds them.
    if (!(k < (await layout(db, size)).chunks[kind])) return null;
    return childDocument(db, name);
  }
  if (key.count === 0) return null; // only an empty table has an empty chunk
  return {
    // A count that disagrees with the boundaries: no version to trust until they are re-derived.
    version: consistent(size, key) ? chunkVersion(size, key) : null,
    build: async () => {
      const chunk = await chunkRows(db, size, kind, k);
      if (!chunk) return null;
      const prefix = pathPrefix(kind);
      const entries = chunk.rows.filter((r) => r.live).flatMap((r) => allLocales(prefix + encodeURIComponent(r.segment), r.updatedMs));
      return { ...chunkVersion(size, chunk.key), xml: urlset(entries) };
    },
  };
}
