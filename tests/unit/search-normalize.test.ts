import { describe, expect, it } from "vitest";
import { keywordCoverage } from "@/lib/search/coverage";
import { cjkGrams, normalizeText, queryTerms, searchColumns } from "@/lib/search/normalize";

describe("search normalization", () => {
  it("folds case, accents and full-width forms", () => {
    expect(normalizeText("  Lâmpada  LED ")).toBe("lampada led");
    expect(normalizeText("Glühbirne")).toBe("gluhbirne");
    expect(normalizeText("ＬＥＤ電球")).toBe("led電球");
    expect(normalizeText("СВЕТОДИОДНАЯ")).toBe("светодиодная");
  });

  it("makes 1- and 2-character grams of CJK runs only", () => {
    expect(cjkGrams("led灯泡 bulb").sort()).toEqual(["泡", "灯", "灯泡"].sort());
    expect(cjkGrams("전구")).toEqual(expect.arrayContaining(["전", "구", "전구"]));
    expect(cjkGrams("plain text")).toEqual([]);
  });

  it("builds the stored columns and the query terms the same way", () => {
    const cols = searchColumns({ title: "Café Table", description: "Solid óak", keywords: ["桌子", "Mesa", "mesa"] });
    expect(cols.titleNorm).toBe("cafe table");
    expect(cols.keywordsNorm).toEqual(["桌子", "mesa"]);
    expect(cols.searchText).toContain("solid oak");
    expect(cols.tokens).toEqual(expect.arrayContaining(["cafe", "table", "mesa", "桌子"]));
    expect(queryTerms("CAFÉ  table cafe")).toEqual(["cafe", "table"]);
  });

  it("reports keyword coverage by script", () => {
    expect(keywordCoverage(["LED bulb"])).toEqual({ covered: ["en", "de", "es", "fr", "pt"], missing: ["zh", "ja", "ko", "ru", "ar|hi"] });
    expect(keywordCoverage(["灯泡", "電球ライト", "전구", "лампа", "مصباح"]).missing).toEqual(["en", "de", "es", "fr", "pt"]);
    expect(keywordCoverage(["बल्ब"]).covered).toEqual(["ar|hi"]);
    expect(keywordCoverage(["電球"]).covered).toEqual(["zh"]);
  });
});
