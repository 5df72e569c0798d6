// Keyword language coverage for AI sellers (contract 4): judged by script, so an agent sees which
// of the ten major languages its keywords still miss.
export const COVERAGE_LANGUAGES = ["zh", "en", "de", "ja", "ko", "ru", "es", "fr", "pt", "ar|hi"] as const;
export type CoverageLanguage = (typeof COVERAGE_LANGUAGES)[number];

const SCRIPT: Record<string, RegExp> = {
  han: /\p{Script=Han}/u,
  kana: /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
  hangul: /\p{Script=Hangul}/u,
  cyrillic: /\p{Script=Cyrillic}/u,
  arabic: /\p{Script=Arabic}/u,
  devanagari: /\p{Script=Devanagari}/u,
  latin: /\p{Script=Latin}/u,
};

export function keywordCoverage(keywords: readonly string[]): { covered: CoverageLanguage[]; missing: CoverageLanguage[] } {
  const has = (script: keyof typeof SCRIPT) => keywords.some((k) => SCRIPT[script]!.test(k));
  const latin = has("latin");
  const kana = has("kana");
  const covered = new Set<CoverageLanguage>();
  // Han alone counts for Chinese; Japanese needs Kana (Han with Kana is both).
  if (keywords.some((k) => SCRIPT.han!.test(k) && !SCRIPT.kana!.test(k))) covered.add("zh");
  if (kana) covered.add("ja");
  if (has("hangul")) covered.add("ko");
  if (has("cyrillic")) covered.add("ru");
  if (has("arabic") || has("devanagari")) covered.add("ar|hi");
  // Latin script counts for the Latin-script languages together.
  if (latin) for (const l of ["en", "de", "es", "fr", "pt"] as const) covered.add(l);
  return { covered: COVERAGE_LANGUAGES.filter((l) => covered.has(l)), missing: COVERAGE_LANGUAGES.filter((l) => !covered.has(l)) };
}
