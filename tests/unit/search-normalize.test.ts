import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keywordCoverage } from "@/lib/search/coverage";
import { cjkGrams, isCjk, markedGrams, normalizeText, queryTerms, searchColumns, words, type SearchColumns } from "@/lib/search/normalize";

describe("search normalization", () => {
  it("folds case, accents and full-width forms", () => {
    expect(normalizeText("  Lâmpada  LED ")).toBe("lampada led");
    expect(normalizeText("Lampe élégante")).toBe("lampe elegante");
    expect(normalizeText("Glühbirne")).toBe("gluhbirne");
    expect(normalizeText("ＬＥＤ電球")).toBe("led 電球");
    expect(normalizeText("СВЕТОДИОДНАЯ")).toBe("светодиодная");
    expect(normalizeText("Ωμέγα")).toBe("ωμεγα");
  });

  it("folds German ß as ss and the Turkish dotted I to i", () => {
    expect(normalizeText("Straße")).toBe("strasse");
    expect(normalizeText("STRASSE")).toBe("strasse");
    expect(normalizeText("ẞ")).toBe("ss");
    expect(normalizeText("İstanbul")).toBe("istanbul");
    expect(normalizeText("ISTANBUL")).toBe("istanbul");
  });

  it("keeps Devanagari vowel signs, virama and anusvara: they are letters of the word", () => {
    for (const w of ["किताब", "हिंदी", "लैंप", "क्या", "स्कूल"]) expect(normalizeText(w)).toBe(w.normalize("NFC"));
    expect(normalizeText("किताब")).not.toBe(normalizeText("कताब"));
    expect(words(normalizeText("हिंदी किताब, लैंप"))).toEqual(["हिंदी", "किताब", "लैंप"]);
    expect(searchColumns({ title: "हिंदी किताब", keywords: ["लैंप"] }).tokens).toEqual(["हिंदी", "किताब", "लैंप"]);
    expect(queryTerms("हिंदी")).toEqual(["हिंदी"]);
    // Thai vowels and tones are marks too, and stay.
    expect(normalizeText("ภาษาไทย")).toBe("ภาษาไทย");
  });

  it("strips Arabic harakat and hamza seats (optional in writing)", () => {
    expect(normalizeText("كِتَاب")).toBe("كتاب");
    expect(normalizeText("أحمد")).toBe("احمد");
  });

  it("keeps kana voicing marks, folds half-width kana, and folds katakana to hiragana", () => {
    expect(normalizeText("がいこく")).toBe("がいこく");
    expect(normalizeText("がいこく")).not.toBe(normalizeText("かいこく"));
    // Decomposed input (か + U+3099) and the half-width form meet the precomposed one.
    expect(normalizeText("か\u3099いこく")).toBe("がいこく");
    expect(normalizeText("ｶﾞｲｺｸ")).toBe("がいこく");
    expect(normalizeText("ガイコク")).toBe("がいこく");
    expect(normalizeText("ﾊﾟﾝ")).toBe("ぱん");
    expect(normalizeText("ランプ")).toBe(normalizeText("らんぷ"));
    expect(cjkGrams(normalizeText("ガス"))).toEqual(expect.arrayContaining(["が", "す", "がす"]));
    expect(cjkGrams(normalizeText("ガス"))).not.toContain("か");
  });

  it("separates words of other scripts from CJK, and treats _ as a space", () => {
    expect(normalizeText("電球LED 500ml装")).toBe("電球 led 500ml 装");
    expect(normalizeText("model_X200")).toBe("model x200");
  });

  it("makes 1- and 2-character grams of CJK runs only", () => {
    expect(cjkGrams("led灯泡 bulb").sort()).toEqual(["泡", "灯", "灯泡"].sort());
    expect(cjkGrams("전구")).toEqual(expect.arrayContaining(["전", "구", "전구"]));
    expect(cjkGrams("plain text")).toEqual([]);
  });

  it("builds the stored columns and the query terms the same way", () => {
    const cols = searchColumns({
      title: "Café Table",
      description: "Solid óak",
      keywords: ["桌子", "Mesa", "mesa"],
    });
    expect(cols.titleNorm).toBe("cafe table");
    expect(cols.keywordsNorm).toEqual(["桌子", "mesa"]);
    expect(cols.searchText).toContain("solid oak");
    expect(cols.tokens).toEqual(expect.arrayContaining(["cafe", "table", "mesa", "桌子"]));
    expect(queryTerms("CAFÉ  table cafe")).toEqual(["cafe", "table"]);
  });

  it("reports keyword coverage by script", () => {
    expect(keywordCoverage(["LED bulb"])).toEqual({
      covered: ["en", "de", "es", "fr", "pt"],
      missing: ["zh", "ja", "ko", "ru", "ar|hi"],
    });
    expect(keywordCoverage(["灯泡", "電球ライト", "전구", "лампа", "مصباح"]).missing).toEqual(["en", "de", "es", "fr", "pt"]);
    expect(keywordCoverage(["बल्ब"]).covered).toEqual(["ar|hi"]);
    expect(keywordCoverage(["電球"]).covered).toEqual(["zh"]);
  });
});

// ---- The matching rules of lib/services/catalog/search.ts (termCondition), emulated -----------
// PostgreSQL's `\m` (start of a word) counts glibc's alphanumerics and "_" as word characters. On
// both engines (PGlite's C.UTF-8 ctype and PostgreSQL 15's C.UTF-8) that is Unicode's Alphabetic
// property plus digits: Devanagari matras and anusvara are word characters, virama, nukta and
// the Latin combining accents are not.
const PG_WORD = /[\p{Alphabetic}\p{Nd}_]/u;

function pgWordStart(text: string, term: string): boolean {
  const first = [...term][0];
  if (!first || !PG_WORD.test(first)) return false;
  for (let i = text.indexOf(term); i >= 0; i = text.indexOf(term, i + 1)) {
    const before = [...text.slice(0, i)].pop();
    if (!before || !PG_WORD.test(before)) return true;
  }
  return false;
}

function termMatches(cols: SearchColumns, term: string): boolean {
  if ([...term].length >= 3) return isCjk(term) ? cols.searchText.includes(term) : pgWordStart(cols.searchText, term);
  return isCjk(term) ? cols.cjkGrams.includes(term) : cols.tokens.includes(term);
}

const found = (cols: SearchColumns, q: string) => queryTerms(q).length > 0 && queryTerms(q).every((t) => termMatches(cols, t));

const VOCABULARY = [
  ..."Lampe élégante Glühbirne Straße İstanbul ĳssel Ωμέγα лампа йогурт ёлка ＬＥＤ x200 model_x200 wi-fi 500ml".split(" "),
  ..."किताब हिंदी लैंप क्या स्कूल ज़मीन बल्ब प्रकाश".split(" "),
  ..."がいこく かいこく ガス ｶﾞｲｺｸ ﾊﾟﾝ ランプ ヴァイオリン 電球 灯泡 懐中電灯 전구 한국어 ー".split(" "),
  ..."كِتَاب مصباح ภาษาไทย 12 ab".split(" "),
];
const SEPARATORS = [" ", "  ", ", ", "-", "/", "", "(", ") ", "・", "_"];
const title = fc
  .array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));

describe("search normalization properties", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), title), (s) => normalizeText(normalizeText(s)) === normalizeText(s)),
      { numRuns: 2000 },
    );
  });

  it("finds a title by any word prefix of 3+ characters, any whole word, and any CJK substring", () => {
    fc.assert(
      fc.property(title, (t) => {
        const cols = searchColumns({ title: t });
        for (const w of words(cols.titleNorm)) {
          const chars = [...w];
          if (isCjk(w)) {
            for (let i = 0; i < chars.length; i++)
              for (let j = i + 1; j <= chars.length; j++) {
                const q = chars.slice(i, j).join("");
                if (isCjk(q)) expect(found(cols, q), `${q} in ${t}`).toBe(true);
              }
          } else {
            expect(found(cols, w), `${w} in ${t}`).toBe(true);
            for (let n = 3; n <= chars.length; n++) expect(found(cols, chars.slice(0, n).join("")), `${chars.slice(0, n).join("")} in ${t}`).toBe(true);
          }
        }
        // All its words at once, as typed in any case, width or kana form.
        const all = words(cols.titleNorm).join(" ");
        if (all) expect(found(cols, all.toUpperCase()), t).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("character pairs of words with combining marks", () => {
  it("index a Devanagari word by its pairs (pg_trgm cuts such words at their marks)", () => {
    expect(markedGrams(normalizeText("बत्ती"))).toEqual(["बत", "त्", "्त", "ती"]);
    expect(cjkGrams(normalizeText("बत्ती lamp"))).toEqual(expect.arrayContaining(["बत", "त्", "्त", "ती"]));
    // Words without marks keep to trigrams and whole words.
    expect(markedGrams("lamp")).toEqual([]);
    expect(cjkGrams(normalizeText("lamp bulb"))).toEqual([]);
  });
});
