// The 15 locales of the spec, in the order the language switcher lists them.
export const LOCALES = ["en", "zh", "ar", "es", "fr", "de", "ru", "ja", "ko", "pt", "hi", "tr", "th", "id", "vi"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(["ar"]);

/** Each language's own name, for the switcher (never translated). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  zh: "中文",
  ar: "العربية",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  ru: "Русский",
  ja: "日本語",
  ko: "한국어",
  pt: "Português",
  hi: "हिन्दी",
  tr: "Türkçe",
  th: "ไทย",
  id: "Bahasa Indonesia",
  vi: "Tiếng Việt",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function textDirection(locale: Locale): "ltr" | "rtl" {
  return RTL_LOCALES.has(locale) ? "rtl" : "ltr";
}

/** A path in a locale (as-needed prefixes: English has none). Safe in client components. */
export function localizedPath(locale: Locale, path: string): string {
  const clean = path === "/" ? "" : path;
  return locale === DEFAULT_LOCALE ? clean || "/" : `/${locale}${clean}`;
}
