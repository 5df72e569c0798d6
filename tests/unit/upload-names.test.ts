import { describe, expect, it } from "vitest";
import { contentDisposition, MAX_NAME_LENGTH, sanitizeFileName } from "@/lib/services/uploads/names";
import { parseRange } from "@/lib/services/uploads/serve";

describe("sanitizeFileName", () => {
  it.each([
    ["report.pdf", "report.pdf"],
    ["../../etc/passwd", "passwd"],
    ["..\\..\\windows\\system32\\evil.exe", "evil.exe"],
    ["C:\\Users\\me\\Desktop\\price list.xlsx", "price list.xlsx"],
    ["a\u0000b\u0007c\u001b[31m.csv", "abc[31m.csv"],
    ["..", "file"],
    ["....pdf", "pdf"],
    ["a..b...c.txt", "a.b.c.txt"],
    ["invoice\u202efdp.exe", "invoicefdp.exe"],
    ["  spaced\t\tout  .png ", "spaced out .png"],
    ['what?<>:"|*.pdf', "what_______.pdf"],
    ["", "file"],
    ["/", "file"],
    ["Katalog – Preise 2026.pdf", "Katalog – Preise 2026.pdf"],
    ["产品目录.pdf", "产品目录.pdf"],
  ])("%j -> %j", (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
  });

  it("limits the length and keeps the extension", () => {
    const long = sanitizeFileName(`${"x".repeat(500)}.pdf`);
    expect([...long]).toHaveLength(MAX_NAME_LENGTH);
    expect(long.endsWith(".pdf")).toBe(true);
    const cjk = sanitizeFileName(`${"目".repeat(300)}.csv`);
    expect([...cjk]).toHaveLength(MAX_NAME_LENGTH);
  });

  it("never keeps a path separator, NUL or control character", () => {
    for (let c = 0; c < 0x20; c++) expect(sanitizeFileName(`a${String.fromCharCode(c)}b`)).toBe(c === 9 || c === 10 || c === 13 ? "a b" : "ab");
    expect(sanitizeFileName("a/b\\c")).toBe("c");
  });
});

describe("contentDisposition", () => {
  it("gives an ASCII fallback and the exact UTF-8 name", () => {
    expect(contentDisposition("attachment", 'Preis "liste" ü.csv')).toBe(
      `attachment; filename="Preis _liste_ _.csv"; filename*=UTF-8''Preis%20%22liste%22%20%C3%BC.csv`,
    );
    expect(contentDisposition("attachment", "a'(b)*.pdf")).toBe(`attachment; filename="a'(b)*.pdf"; filename*=UTF-8''a%27%28b%29%2A.pdf`);
  });
});

describe("parseRange", () => {
  it.each([
    [null, null],
    ["bytes=0-9", { start: 0, end: 9 }],
    ["bytes=5-", { start: 5, end: 99 }],
    ["bytes=-10", { start: 90, end: 99 }],
    ["bytes=90-500", { start: 90, end: 99 }],
    ["bytes=100-", "unsatisfiable"],
    ["bytes=-0", "unsatisfiable"],
    ["bytes=9-5", null],
    ["bytes=0-1,5-6", null],
    ["items=0-1", null],
  ] as const)("%j of 100 bytes", (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});
