import { describe, expect, it } from "vitest";
import { AnchorIndex, changedTexts } from "@/lib/services/catalog/anchor-index";
import { matches, type ListMatcher } from "@/lib/services/catalog/matcher";

// The index that picks the cached answers a product change can touch (lib/services/catalog/anchor-index.ts)
// must find every answer `matches` could say yes for: held here against the brute force it replaced.

/** A small seeded generator, so a failure repeats. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Latin, CJK, kana, Devanagari with a combining mark, Arabic, an astral character (two code units), the separator.
const ALPHABET = ["a", "b", "l", "m", "p", "灯", "具", "ガ", "イ", "कि", "ता", "م", "ل", "𠀋", " ", " • "];

const matcherOf = (terms: string[]): ListMatcher => ({ terms, categories: null, exhibition: false, facets: false, priceOrder: false });
const state = (text: string) => ({ live: true, category: "c", price: "1.00", currency: "USD", moq: 1, oem: false, seller: "s", booth: null, text });

describe("AnchorIndex", () => {
  it("finds exactly the keys whose every term can be in a text, for random queries and texts", () => {
    const r = random(7);
    const word = (max: number) => Array.from({ length: 1 + Math.floor(r() * max) }, () => ALPHABET[Math.floor(r() * (ALPHABET.length - 2))]).join("");
    const index = new AnchorIndex<number>();
    const queries: string[][] = [];
    for (let k = 0; k < 400; k++) {
      const terms = k % 25 === 0 ? [] : Array.from({ length: 1 + Math.floor(r() * 3) }, () => word(4));
      queries.push(terms);
      index.add(terms, k);
    }
    // Some leave again: the index forgets them and keeps the others under the same anchor.
    for (let k = 0; k < 400; k += 7) index.delete(queries[k]!, k);
    const live = (k: number) => k % 7 !== 0;
    expect(index.size).toBe(queries.filter((_, k) => live(k)).length);
    let touched = 0;
    for (let n = 0; n < 300; n++) {
      const texts = Array.from({ length: 1 + Math.floor(r() * 2) }, () =>
        Array.from({ length: 1 + Math.floor(r() * 12) }, () => word(5)).join(r() < 0.5 ? " " : " • "),
      );
      const found = new Set<number>();
      index.collect(texts, found);
      for (let k = 0; k < queries.length; k++) {
        if (!live(k)) {
          expect(found.has(k)).toBe(false);
          continue;
        }
        const couldMatch = texts.some((t) => matches(matcherOf(queries[k]!), state(t)));
        // Every answer matches() could say yes for is found; one found matches at least its anchor.
        if (couldMatch) expect(found.has(k), `${JSON.stringify(queries[k])} in ${JSON.stringify(texts)}`).toBe(true);
        if (found.has(k) && queries[k]!.length) expect(texts.some((t) => t.includes(AnchorIndex.anchorOf(queries[k]!)!))).toBe(true);
        if (couldMatch) touched++;
      }
    }
    // The data exercise both sides (the test would say little if nothing ever matched).
    expect(touched).toBeGreaterThan(100);
  });

  it("files an answer under its longest term, keeps answers without terms always, and forgets an anchor's last key", () => {
    const index = new AnchorIndex<string>();
    index.add(["la", "lamp"], "lamp");
    index.add(["灯"], "cjk");
    index.add([], "all");
    const found = (text: string) => {
      const out = new Set<string>();
      index.collect([text], out);
      return [...out].sort();
    };
    expect(AnchorIndex.anchorOf(["la", "lamp"])).toBe("lamp");
    expect(found("a clamp • 台灯")).toEqual(["all", "cjk", "lamp"]);
    expect(found("la • 台")).toEqual(["all"]);
    index.delete(["la", "lamp"], "lamp");
    index.delete(["灯"], "cjk");
    expect(found("lamp 灯")).toEqual(["all"]);
    expect(index.size).toBe(1);
  });

  it("reads a change's texts once when both states have the same", () => {
    expect(changedTexts({ before: state("a"), after: state("a") })).toEqual(["a"]);
    expect(changedTexts({ before: state("a"), after: state("b") })).toEqual(["a", "b"]);
    expect(changedTexts({ before: null, after: state("b") })).toEqual(["b"]);
    expect(changedTexts({ before: state("a"), after: null })).toEqual(["a"]);
  });
});
