// Contract 9.1: bad input never costs more than ordinary input. The cleaners and normalizers keep
// their outputs, and a 16 KB hostile input costs about what an ordinary one of the same size costs
// (a ratio measured here, never a duration: the quadratic versions were 300-1500x).
import { describe, expect, it } from "vitest";
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from "@/lib/api/json-shape";
import { cjkGrams, normalizeText, searchColumns } from "@/lib/search/normalize";
import { sanitizeFileName } from "@/lib/services/uploads/names";

const SIZE = 16 * 1024;
/** Ordinary text of exactly `SIZE` characters. */
const ordinary = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/** CPU time of `rounds` calls of `f` on `input`, in microseconds. */
function cpu(f: (s: string) => unknown, input: string, rounds: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) f(input);
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/** The median over 7 trials of the cost of `hostile` divided by the cost of `normal` (after a warm-up). */
function costRatio(f: (s: string) => unknown, hostile: string, normal: string): number {
  cpu(f, hostile, 3);
  cpu(f, normal, 3);
  const ratios: number[] = [];
  for (let t = 0; t < 7; t++) ratios.push(cpu(f, hostile, 10) / Math.max(1, cpu(f, normal, 10)));
  ratios.sort((a, b) => a - b);
  return ratios[3]!;
}

describe("sanitizeFileName on hostile names", () => {
  it.each([
    ["x . . . . x", "x . . . . x"],
    [". . . . x", "x"],
    ["x . . . . ", "x"],
    [" . .report. . .pdf . . ", "report. . .pdf"],
    [". . . .", "file"],
    ["\u00a0.\u3000report.pdf\u2028.", "report.pdf"],
  ])("%j -> %j", (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
  });

  it("cleans a 16 KB name of dots and spaces at the cost of an ordinary one", () => {
    const hostile = `x${" .".repeat(SIZE / 2 - 1)}x`;
    expect(sanitizeFileName(hostile)).toBe(`x${" .".repeat(99)}x`);
    const ratio = costRatio(sanitizeFileName, hostile, ordinary("Quarterly price list, final version "));
    console.log(`sanitizeFileName: hostile/ordinary cost ${ratio.toFixed(2)}`);
    expect(ratio).toBeLessThan(3);
  });
});

describe("search normalization on hostile text", () => {
  it("finds the mark pairs of every marked word and none in words without marks", () => {
    expect(cjkGrams(normalizeText("कतब किताब"))).toEqual(["कि", "ित", "ता", "ाब"]);
    expect(cjkGrams(normalizeText("abc กิน x"))).toEqual(["กิ", "ิน"]);
    expect(cjkGrams("क".repeat(50))).toEqual([]);
  });

  it("normalizes 16 KB of one markless word at the cost of ordinary text", () => {
    const hostile = "क".repeat(SIZE);
    const columns = (s: string) => searchColumns({ title: s, description: s });
    expect(columns(hostile).cjkGrams).toEqual([]);
    const ratio = costRatio(columns, hostile, ordinary("दीपक लैंप और किताब "));
    console.log(`searchColumns: hostile/ordinary cost ${ratio.toFixed(2)}`);
    expect(ratio).toBeLessThan(3);
  });
});

describe("jsonShapeProblem", () => {
  const nest = (n: number) => "[".repeat(n) + "]".repeat(n);
  const tooDeep = (text: string) => jsonShapeProblem(text)?.startsWith("Nested") ?? false;
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
    ["[]".repeat(1000), false],
    ['"unterminated [[[', false],
  ])("depth %#", (text, deep) => {
    expect(tooDeep(text)).toBe(deep);
  });

  it("agrees with the depth JSON.parse finds", () => {
    const depth = (v: unknown): number => (v && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
    for (let n = 0; n < 200; n++) {
      let v: unknown = n % 2 ? "x]}" : 1;
      const levels = n % 90;
      for (let i = 0; i < levels; i++) v = i % 2 ? { [`k"${i}[`]: v, y: "\\" } : ["{", v];
      const text = JSON.stringify(v);
      expect(tooDeep(text)).toBe(depth(JSON.parse(text)) > MAX_JSON_DEPTH);
    }
  });

  it("refuses more than 10,000 values, counting none inside strings", () => {
    const list = (n: number) => JSON.stringify({ k: Array.from({ length: n }, (_, i) => i) });
    expect(jsonShapeProblem(list(MAX_JSON_VALUES - 10))).toBeNull();
    expect(jsonShapeProblem(list(MAX_JSON_VALUES + 1))).toBe(`More than ${MAX_JSON_VALUES} values`);
    const keys = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_JSON_VALUES + 1 }, (_, i) => [`k${i}`, 0])));
    expect(jsonShapeProblem(keys)).toBe(`More than ${MAX_JSON_VALUES} values`);
    expect(jsonShapeProblem(JSON.stringify({ text: ",[{".repeat(100_000) }))).toBeNull();
    // The largest real bodies (50 booth documents, 50 keywords, 20 images) are far below.
    const booth = { documents: Array.from({ length: 50 }, (_, i) => ({ url: `/uploads/${i}`, name: `d${i}.pdf`, type: "pdf", size: 1 })) };
    expect(jsonShapeProblem(JSON.stringify(booth))).toBeNull();
  });
});
