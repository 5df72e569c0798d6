// hreflang alternates for a page in every locale (as-needed prefixes: English has none).
import { DEFAULT_LOCALE, LOCALES, type Locale } from "./locales";

export function localizedPath(locale: Locale, path: string): string {
  const clean = path === "/" ? "" : path;
  return locale === DEFAULT_LOCALE ? clean || "/" : `/${locale}${clean}`;
}

export function alternates(locale: Locale, path: string) {
  return {
    canonical: localizedPath(locale, path),
    languages: {
      ...Object.fromEntries(LOCALES.map((l) => [l, localizedPath(l, path)])),
      "x-default": localizedPath(DEFAULT_LOCALE, path),
    },
  };
}
