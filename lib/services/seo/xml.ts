// The sitemaps.org documents as text: <urlset> children and the <sitemapindex> that lists them.
// Every value is XML-escaped; URLs are absolute and their path segments URL-escaped (the protocol
// asks for both).

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** W3C datetime (ISO 8601 in UTC, as sitemaps.org allows). */
export const w3cDate = (ms: number) => new Date(ms).toISOString();

export type UrlEntry = { loc: string; lastmod?: number };

export function urlset(entries: Iterable<UrlEntry>): string {
  const parts = [HEAD, `<urlset ${NS}>\n`];
  for (const e of entries) {
    parts.push(`<url><loc>${escapeXml(e.loc)}</loc>${e.lastmod !== undefined ? `<lastmod>${w3cDate(e.lastmod)}</lastmod>` : ""}</url>\n`);
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

export function sitemapIndex(locs: string[]): string {
  return HEAD + `<sitemapindex ${NS}>\n` + locs.map((l) => `<sitemap><loc>${escapeXml(l)}</loc></sitemap>\n`).join("") + "</sitemapindex>\n";
}
