// Seeded randomness for the generator and the load scripts: one fixed seed gives the same data,
// the same queries and the same request order on every run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SEED = 20261121;

/** mulberry32: small, fast, good enough for test data. Returns floats in [0, 1). */
export function rng(seed = SEED) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
export const pick = (r, list) => list[Math.floor(r() * list.length)];

/** A Zipf sampler over ranks 0..n-1 (rank 0 most frequent), exponent s. */
export function zipf(n, s = 1.0) {
  const cum = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cum[k] = total += 1 / Math.pow(k + 1, s);
  return (r) => {
    const x = r() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** The 11 keyword languages of the spec (ten major ones, with hi beside ar). */
export const LANGUAGES = ["en", "zh", "ja", "ko", "ar", "ru", "es", "fr", "de", "pt", "hi"];
export const CJK_LANGUAGES = ["zh", "ja", "ko"];

const wordsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "words");

/** Word lists per language, de-duplicated, in file order (the order is the Zipf rank). */
export function loadWords() {
  const out = {};
  for (const lang of LANGUAGES) {
    const lines = readFileSync(path.join(wordsDir, `${lang}.txt`), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    out[lang] = [...new Set(lines)];
  }
  return out;
}

const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
export const isCjkText = (s) => CJK_RE.test(s);

/** A fixed, seeded set of chat pairs (indexes into the first n sellers); the generator opens their
 * conversations, scenario 4 sends along them. */
export function pairSet(n, count, seed = 7) {
  const r = rng(seed);
  const pairs = [];
  while (pairs.length < count) {
    const a = int(r, 0, n - 1);
    const b = int(r, 0, n - 1);
    if (a !== b) pairs.push([a, b]);
  }
  return pairs;
}
