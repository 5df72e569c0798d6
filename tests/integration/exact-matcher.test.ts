import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { products, type CatalogState } from "@/lib/db/schema";
import { ProductListQuery } from "@/lib/schemas/products";
import { searchColumns } from "@/lib/search/normalize";
import { stopCatalogFeed } from "@/lib/services/catalog/catalog-feed";
import { matchesExactly, scoreOf } from "@/lib/services/catalog/matcher";
import { matcherFor } from "@/lib/services/catalog/search";
import { candidateStateQuery, filters } from "@/lib/services/catalog/search-sql";
import { storeWithCategory, testDb } from "../support/db";

// A cached count is adjusted by a change instead of recounted when matchesExactly decides the product's
// match (aggregate-cache.ts). Wherever it claims to know, it must agree with the database's own
// conditions (search-sql.ts) on this engine: checked here on texts with every kind of word boundary,
// script and term form, on PGlite and on PostgreSQL.
let db: Db;
let close: () => Promise<void>;
let seller = "";
let category = "";

const TEXTS: { title: string; keywords?: string[]; description?: string; price?: string; moq?: number; oem?: boolean; hidden?: boolean }[] = [
  { title: "LED desk lamp", keywords: ["lamp", "desk lamp"], description: "9 W, E27 socket" },
  { title: "Glühlampe E27", keywords: ["Lampe"], description: "warmweiß" },
  { title: "Lampe de bureau", keywords: ["lampe-torche", "lámpara"], price: "12.50" },
  { title: "Lamp_X200 module", keywords: ["x200lamp"], description: "model_x200 board" },
  { title: "Ламповый усилитель", keywords: ["лампа", "ламп"], description: "ламповый звук" },
  { title: "مصباح LED", keywords: ["لمبة", "مصباح"], description: "١lamp ٢٠ واط" },
  { title: "LED電球 E26", keywords: ["電球", "灯泡", "电灯泡"], description: "500ml装 电灯" },
  { title: "デスクランプ", keywords: ["ランプ", "らんぷ"], description: "ライト" },
  { title: "एलईडी लैंप", keywords: ["लैंप", "बल्ब"], description: "किफायती" },
  { title: "โคมไฟตั้งโต๊ะ", keywords: ["โคมไฟ"] },
  // Devanagari word starts: after a letter (inside a word), after a vowel sign (a word character to the
  // database, a mark to the matcher), after "(" and a space; a term holding "-", which no n-gram pair holds.
  { title: "पावरएडाप्टर यूएसबी", keywords: ["चार्जर"], description: "बिजलीएडाप्टर (एडाप्टर) लैंप-बल्ब" },
  { title: "बिजलीएडाप्टर", keywords: ["पावरएडाप्टर"] },
  { title: "💡lamp bulb", keywords: ["½lamp", "№5 lamp"], description: "a•lamp, (lamp) [lamp] lamp/led lamp's" },
  { title: "Peeled shrimp", keywords: ["seafood"], description: "clamp-free packaging, ampere" },
  { title: "Hidden lamp", keywords: ["lamp"], hidden: true },
  { title: "Cheap lamp", keywords: ["lamp"], price: "0.99", moq: 500, oem: true },
  { title: "Café lamp", keywords: ["ÉCLAIRAGE", "éclair"], description: "naïve design" },
];
const TERMS = [
  "lamp",
  "lampe",
  "led",
  "e27",
  "amp",
  "lamp5",
  "x200",
  "ламп",
  "лампа",
  "مصباح",
  "لمبة",
  "灯",
  "灯泡",
  "电灯",
  "電球",
  "球",
  "らんぷ",
  "ら",
  "らい",
  "lá",
  "x2",
  "ml",
  "装",
  "500ml",
  "लैंप",
  "बल्ब",
  "बल्",
  "एडाप्टर",
  "लैंप-बल्ब",
  "ईडी",
  "पावरएडाप्टर",
  "โคมไฟ",
  "ตั้งโต๊ะ",
  "💡",
  "shrimp",
  "clamp",
  "ampere",
  "éclair",
  "eclair",
  "café",
  "design",
  "lamp's",
  "desk lamp",
  "led lamp",
];

beforeAll(async () => {
  ({ db, close } = await testDb());
  ({ seller, category } = await storeWithCategory(db, "Exact"));
  await db.insert(products).values(
    TEXTS.map((t, i) => ({
      sellerId: seller,
      categoryId: category,
      title: t.title,
      description: t.description ?? "",
      keywords: t.keywords ?? [],
      price: t.price ?? "10.00",
      currency: "USD",
      moq: t.moq ?? 1,
      acceptsOEM: t.oem ?? false,
      isHidden: t.hidden ?? false,
      createdAt: new Date(Date.now() - i * 1000),
      ...searchColumns(t),
    })),
  );
}, 120_000);
afterAll(async () => {
  stopCatalogFeed();
  await close();
});

/** Each product's state as the change feed records it (the trigger's own function). */
async function states(): Promise<Map<string, CatalogState>> {
  const rows = (await db.execute(sql`select p.id, catalog_product_state(p) as s from ${products} p where p.seller_id = ${seller}`)) as unknown as
    { rows: { id: string; s: CatalogState | string }[] } | { id: string; s: CatalogState | string }[];
  const list = Array.isArray(rows) ? rows : rows.rows;
  return new Map(list.map((r) => [r.id, typeof r.s === "string" ? (JSON.parse(r.s) as CatalogState) : r.s]));
}

async function matchedIds(query: Record<string, unknown>): Promise<Set<string>> {
  const q = ProductListQuery.parse({ ...query, sellerId: seller });
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sellerId, seller), ...filters(q, { withCategory: true })));
  return new Set(rows.map((r) => r.id));
}

/** The matcher the list cache builds for this query (search.ts). */
const matcherOf = (query: Record<string, unknown>) => matcherFor(db, ProductListQuery.parse({ ...query, sellerId: seller }), false);

describe("the exact matcher agrees with the database wherever it claims to know", () => {
  it("for every term against every text, and it knows most of them", async () => {
    const all = await states();
    expect(all.size).toBe(TEXTS.length);
    const disagreements: string[] = [];
    let sure = 0;
    let asked = 0;
    for (const q of TERMS) {
      const inDb = await matchedIds({ q });
      const m = await matcherOf({ q });
      for (const [id, s] of all) {
        asked++;
        const verdict = matchesExactly(m, s);
        if (verdict === null) continue;
        sure++;
        if (verdict !== inDb.has(id)) disagreements.push(`"${q}" on "${s.text}": matcher ${verdict}, database ${inDb.has(id)}`);
      }
    }
    expect(disagreements).toEqual([]);
    // Unsure only for short non-CJK terms found in a text and words with combining marks: most pairs are decided.
    expect(sure / asked).toBeGreaterThan(0.9);
  });

  it("scores every match as the ranking statement does, for single terms and pairs", async () => {
    const all = await states();
    const disagreements: string[] = [];
    let compared = 0;
    for (const text of [...TERMS, "led lamp desk", "lampe e27", "灯 泡"]) {
      const q = ProductListQuery.parse({ q: text, sellerId: seller });
      const m = await matcherFor(db, q, false);
      const scored = await candidateStateQuery(db, q, null, [...all.keys()]);
      for (const { id, score } of scored) {
        compared++;
        const mine = scoreOf(m.terms, all.get(id)!);
        if (mine !== score) disagreements.push(`"${text}" on "${all.get(id)!.text}": scoreOf ${mine}, database ${score}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(50);
  });

  it("with filters: price bounds at the cent, currency, MOQ, OEM, and hidden products", async () => {
    const all = await states();
    const queries = [
      { q: "lamp", minPrice: 0.99 },
      { q: "lamp", maxPrice: 0.99 },
      { q: "lamp", minPrice: 1 },
      { q: "lamp", maxPrice: 12.5 },
      { q: "lamp", minPrice: 12.5, maxPrice: 12.5 },
      { keyword: "lamp", maxMoq: 499 },
      { keyword: "lamp", acceptsOEM: "true" },
      { keyword: "lamp", currency: "EUR" },
      { minPrice: 10, maxPrice: 10 },
    ];
    for (const query of queries) {
      const inDb = await matchedIds(query);
      const m = await matcherOf(query);
      for (const [id, s] of all) {
        const verdict = matchesExactly(m, s);
        if (verdict !== null) expect({ query, text: s.text, verdict }).toEqual({ query, text: s.text, verdict: inDb.has(id) });
      }
    }
    // The hidden product is never a match, and the cheap one is known to be one.
    const m = await matcherOf({ q: "lamp", maxPrice: 0.99 });
    const hidden = [...all.values()].find((s) => s.text.startsWith("hidden lamp"))!;
    const cheap = [...all.values()].find((s) => s.text.startsWith("cheap lamp"))!;
    expect(matchesExactly(m, hidden)).toBe(false);
    expect(matchesExactly(m, cheap)).toBe(true);
  });

  it("records when a product was created as the ranking keeps its candidates: microseconds since 1970", async () => {
    const id = [...(await states())].find(([, s]) => s.text.startsWith("led desk lamp"))![0];
    await db
      .update(products)
      .set({ createdAt: sql`'2026-01-02 03:04:05.678901+00'::timestamptz` })
      .where(eq(products.id, id));
    const created = (await states()).get(id)!.created;
    expect(created).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 678) * 1000 + 901);
    // A cached search compares it with its candidates' (list-cache.ts): the same figure.
    const [candidate] = await candidateStateQuery(db, ProductListQuery.parse({ q: "lamp", sellerId: seller }), null, [id]);
    expect(candidate?.created).toBe(created);
  });

  it("does not claim to know a booth filter's answer (the booth's publication is not in the state)", async () => {
    const all = await states();
    const m = { ...(await matcherOf({ q: "lamp" })), boothId: "some-booth" };
    for (const s of all.values()) expect(matchesExactly(m, { ...s, booth: "some-booth" }) === true).toBe(false);
  });
});
