// hreflang alternates for a page in every locale (as-needed prefixes: English has none), absolute on
// the one configured origin (env().PUBLIC_URL): crawlers and Lighthouse want absolute canonical URLs,
// and the request's Host header is not trusted to name the site.
import { env } from "@/lib/env";
import { DEFAULT_LOCALE, LOCALES, localizedPath, type Locale } from "./locales";

export { localizedPath };

/** The site's public origin without a trailing slash (NEXTAUTH_URL, or http://localhost:$PORT). */
export function siteOrigin(): string {
  return new URL(env().PUBLIC_URL).origin;
}

/** An absolute URL on the site's origin for a path ("/x") or an already absolute URL (kept). */
export function absoluteUrl(pathOrUrl: string): string {
  return new URL(pathOrUrl, `${siteOrigin()}/`).toString();
}

export function alternates(locale: Locale, path: string) {
  const abs = (l: Locale) => absoluteUrl(localizedPath(l, path));
  return {
    canonical: abs(locale),
    languages: {
      ...Object.fromEntries(LOCALES.map((l) => [l, abs(l)])),
      "x-default": abs(DEFAULT_LOCALE),
    },
  };
}

/** og:url for a page: the same absolute URL as its canonical. */
export function openGraphUrl(locale: Locale, path: string): string {
  return absoluteUrl(localizedPath(locale, path));
}
