import { readFileSync } from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/lib/i18n/locales";

type Tree = { [k: string]: string | Tree };
const load = (l: string) => JSON.parse(readFileSync(path.join(__dirname, "../../messages", `${l}.json`), "utf8")) as Tree;
const flat = (o: Tree, pre = ""): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === "string" ? [[pre + k, v] as [string, string]] : flat(v, `${pre}${k}.`)));

// Strings that are the same in every language by nature (brand names).
const SAME_EVERYWHERE = new Set(["Metadata.siteName"]);
const en = new Map(flat(load("en")));
// A value for every placeholder of a message (numbers format as plurals and as text).
const sample = (msg: string) => Object.fromEntries((msg.match(/\{(\w+)/g) ?? []).map((m) => [m.slice(1), 3]));

describe("message catalogs", () => {
  it.each(LOCALES.filter((l) => l !== "en"))("%s has every key, translated, and valid ICU", (locale) => {
    const messages = new Map(flat(load(locale)));
    expect([...en.keys()].filter((k) => !messages.has(k))).toEqual([]);
    expect([...messages.keys()].filter((k) => !en.has(k))).toEqual([]);
    const copied = [...en.entries()].filter(([k, v]) => !SAME_EVERYWHERE.has(k) && /\p{L}{3,}/u.test(v) && messages.get(k) === v).map(([k]) => k);
    expect(copied).toEqual([]);
    for (const [key, msg] of messages) {
      expect(() => new IntlMessageFormat(msg, locale).format(sample(msg)), `${locale} ${key}`).not.toThrow();
      for (const placeholder of en.get(key)!.match(/\{(\w+)[,}]/g) ?? []) expect(msg, `${locale} ${key}`).toContain(placeholder.slice(0, -1));
    }
  });

  it("en compiles", () => {
    for (const [key, msg] of en) expect(() => new IntlMessageFormat(msg, "en").format(sample(msg)), key).not.toThrow();
  });
});
