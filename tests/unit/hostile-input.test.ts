// Contract 9.1: bad input never costs more than ordinary input. The cleaners and normalizers keep
// their outputs, and a 16 KB hostile input costs about what an ordinary one of the same size costs
// (a ratio measured here, never a duration: the quadratic versions were 300-1500x).
import { describe, expect, it } from "vitest";
import { jsonTooDeep, MAX_JSON_DEPTH } from "@/lib/api/json-depth";

describe("jsonTooDeep", () => {
  const nest = (n: number) => "[".repeat(n) + "]".repeat(n);
  it.each([
    [nest(MAX_JSON_DEPTH), false],
    [nest(MAX_JSON_DEPTH + 1), true],
    ['{"a":' + nest(MAX_JSON_DEPTH - 1) + "}", false],
    ['{"a":' + nest(MAX_JSON_DEPTH) + "}", true],
    // Brackets inside strings do not nest, escaped quotes do not end the string.
    [JSON.stringify({ s: "[".repeat(1000) }), false],
    [JSON.stringify({ s: '\\"[[[' + "{".repeat(1000) }), false],
    [JSON.stringify(["\\", nest(10)]), false],
    ["[".repeat(MAX_JSON_DEPTH + 1), true],
    ["[]".repeat(10_000), false],
    ['"unterminated [[[', false],
  ])("%#", (text, deep) => {
    expect(jsonTooDeep(text)).toBe(deep);
  });

  it("agrees with the depth JSON.parse finds", () => {
    const depth = (v: unknown): number => (v && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
    for (let n = 0; n < 200; n++) {
      let v: unknown = n % 2 ? "x]}" : 1;
      const levels = n % 90;
      for (let i = 0; i < levels; i++) v = i % 2 ? { [`k"${i}[`]: v, y: "\\" } : ["{", v];
      const text = JSON.stringify(v);
      expect(jsonTooDeep(text)).toBe(depth(JSON.parse(text)) > MAX_JSON_DEPTH);
    }
  });
});
