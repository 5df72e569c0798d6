import { defineRouting } from "next-intl/routing";
import { DEFAULT_LOCALE, LOCALES } from "./locales";

export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: DEFAULT_LOCALE,
  localePrefix: "as-needed",
  // hreflang alternates are in every page's <head> (generateMetadata); the proxy's `Link` header repeated
  // them on every answer (1.6 kB of headers Node validates per page, cached pages included).
  alternateLinks: false,
});
