// Seeded bench data (issue #6): 1k sellers, 2k booths, 500 categories and 100k products with up
// to 50 keywords each in the 11 keyword languages, loaded with COPY straight into the app's schema
// after the app's own migrations. Every search column is computed by the app's own code
// (lib/search/normalize.ts), so the rows are exactly what POST /api/products would have stored.
// Also opens scenario 4's conversations and writes the manifest the scenarios read: product ids,
// sellers with Bearer tokens, the Zipf-distributed search queries, the list URLs and the products
// scenario 8's signed-in sellers edit.
//
//   node --import tsx bench/generate.ts --out DIR [--products N]   (DATABASE_URL or PGLITE_DIR set)
import bcrypt from "bcryptjs";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { signAccessToken, TOKEN_LIFETIME_SECONDS } from "@/lib/auth/tokens";
import { closeDatabase, dbHandle, type DbHandle } from "@/lib/db/client";
import { prepareDatabase } from "@/lib/db/migrate";
import { LOCALES } from "@/lib/i18n/locales";
import { normalizeText, searchColumns, stripAccents } from "@/lib/search/normalize";
import { CJK_LANGUAGES, int, isCjkText, LANGUAGES, loadWords, pairSet, pick, rng, SEED, zipf, type Rng } from "./lib/rand.mjs";

export const BENCH_PASSWORD = "bench-password-123";
const BASE_TIME = Date.parse("2026-11-01T00:00:00Z");
const DAY = 86_400_000;

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const OUT = path.resolve(arg("--out", "bench/.data/pg"));
const PRODUCTS = Number(arg("--products", "100000"));
const SELLERS = 1000;
const BOOTHS = 2000;
const CATEGORIES = 500;
/** Scenario 8 signs in as the first WRITERS sellers (POST /api/auth/login) and edits their products. */
const WRITERS = 50;
const OWNED_MAX = 5000;

const r = rng(SEED);
const words = loadWords();
const zipfOf = Object.fromEntries(LANGUAGES.map((l) => [l, zipf(words[l]!.length, 1.0)])) as Record<string, (r: Rng) => number>;
const word = (lang: string) => words[lang]![zipfOf[lang]!(r)]!;
/** CJK text has no spaces between words (ko does use them). */
const join = (lang: string, parts: string[]) => parts.join(lang === "zh" || lang === "ja" ? "" : " ");

/** A UUID v7 from a timestamp and the seeded generator, so ids are the same on every run. */
function seededId(ms: number): string {
  const b = new Uint8Array(16);
  for (let i = 0; i < 6; i++) b[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  for (let i = 6; i < 16; i++) b[i] = Math.floor(r() * 256);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- COPY text format -------------------------------------------------------------------------
type Cell = string | number | boolean | null | Date | string[] | Record<string, unknown>;
const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
function cell(v: Cell): string {
  if (v === null) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number") return String(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return esc(`{${v.map((e) => `"${e.replace(/["\\]/g, "\\$&")}"`).join(",")}}`);
  if (typeof v === "object") return esc(JSON.stringify(v));
  return esc(v);
}
const line = (cells: Cell[]) => cells.map(cell).join("\t") + "\n";

async function copyRows(handle: DbHandle, table: string, columns: string[], rows: string[]): Promise<void> {
  const head = `COPY ${table} (${columns.join(", ")}) FROM`;
  const BATCH = 10_000;
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    if (handle.kind === "postgres") {
      const writable = await handle.client.unsafe(`${head} STDIN`).writable();
      await pipeline(Readable.from(chunk), writable);
    } else {
      await handle.client.query(`${head} '/dev/blob'`, [], { blob: new Blob([chunk.join("")]) });
    }
  }
}

async function exec(handle: DbHandle, sqlText: string): Promise<Record<string, unknown>[]> {
  if (handle.kind === "postgres") return [...(await handle.client.unsafe(sqlText))] as Record<string, unknown>[];
  const res = await handle.client.query<Record<string, unknown>>(sqlText);
  return res.rows;
}

// ---- data -------------------------------------------------------------------------------------
const COUNTRIES = ["CN", "DE", "US", "JP", "KR", "IN", "BR", "FR", "ES", "RU", "AE", "TR", "VN", "TH", "ID", "MX"];
const CURRENCIES = ["USD", "USD", "USD", "USD", "EUR", "CNY", "JPY"];

function keywordSet(primary: string): string[] {
  const n = int(r, 1, 50);
  const seen = new Set<string>();
  const out: string[] = [];
  for (let tries = 0; out.length < n && tries < n * 4; tries++) {
    const lang = r() < 0.3 ? primary : pick(r, LANGUAGES);
    const kw = r() < 0.2 ? join(lang, [word(lang), word(lang)]) : word(lang);
    const key = normalizeText(kw);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(kw);
  }
  return out;
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const t0 = Date.now();
  await prepareDatabase({ demo: false });
  const handle = await dbHandle();
  const log = (msg: string) => console.log(`[generate ${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`);
  const [{ n: existing } = { n: 0 }] = await exec(handle, "select count(*)::int as n from products");
  if (Number(existing) > 0) throw new Error(`the database already holds ${existing} products; generate into an empty one`);
  log(`migrated (${handle.kind})`);

  // Categories: the seeded tree plus generated ones, 500 in all, named in every locale.
  const seeded = (await exec(handle, "select id, slug, parent_id from categories order by sort_order, slug")) as {
    id: string;
    slug: string;
    parent_id: string | null;
  }[];
  const catRows: string[] = [];
  const categoryIds = seeded.map((c) => c.id);
  for (let i = seeded.length; i < CATEGORIES; i++) {
    const id = seededId(BASE_TIME - 400 * DAY + i);
    const parent = pick(r, seeded).id;
    const names: Record<string, string> = {};
    for (const loc of LOCALES) {
      const lang = LANGUAGES.includes(loc) ? loc : "en";
      names[loc] = join(lang, [word(lang), word(lang)]);
    }
    catRows.push(line([id, `bench-${i}`, parent, names, i]));
    categoryIds.push(id);
  }
  await copyRows(handle, "categories", ["id", "slug", "parent_id", "names", "sort_order"], catRows);
  log(`${categoryIds.length} categories`);

  // Sellers: one password hash shared by all (bcrypt once, not a thousand times).
  const hash = await bcrypt.hash(BENCH_PASSWORD, Number(process.env.BCRYPT_COST ?? 10));
  const sellers: { userId: string; profileId: string; username: string; email: string; lang: string }[] = [];
  const userRows: string[] = [];
  const profileRows: string[] = [];
  for (let i = 0; i < SELLERS; i++) {
    const created = new Date(BASE_TIME - 390 * DAY + i * 1000);
    const userId = seededId(created.getTime());
    const profileId = seededId(created.getTime());
    const lang = pick(r, LANGUAGES);
    const s = { userId, profileId, username: `bench_seller_${i}`, email: `seller${i}@bench.expo-trade.test`, lang };
    sellers.push(s);
    const country = pick(r, COUNTRIES);
    userRows.push(line([userId, s.email, s.username, hash, "SELLER", country, created, created]));
    const company = join(lang, [word(lang), word(lang)]) + (lang === "en" ? " Co." : "");
    profileRows.push(line([profileId, userId, company, country, join(lang, [word(lang), word(lang), word(lang)]), created, created]));
  }
  await copyRows(handle, "users", ["id", "email", "username", "password_hash", "role", "country", "created_at", "updated_at"], userRows);
  await copyRows(handle, "seller_profiles", ["id", "user_id", "company_name", "country", "description", "created_at", "updated_at"], profileRows);

  const booths: { id: string; seller: (typeof sellers)[number] }[] = [];
  const boothRows: string[] = [];
  for (let i = 0; i < BOOTHS; i++) {
    const seller = sellers[i % SELLERS]!;
    const created = new Date(BASE_TIME - 380 * DAY + i * 1000);
    const id = seededId(created.getTime());
    booths.push({ id, seller });
    const l = seller.lang;
    boothRows.push(
      line([id, seller.profileId, join(l, [word(l), word(l)]), join(l, [word(l), word(l), word(l)]), [word(l), word("en")], r() < 0.9, created, created]),
    );
  }
  await copyRows(handle, "booths", ["id", "seller_id", "name", "description", "keywords", "is_published", "created_at", "updated_at"], boothRows);
  log(`${SELLERS} sellers, ${BOOTHS} booths`);

  // Products. Indexes are dropped for the load and rebuilt from their own definitions afterwards.
  const indexes = (await exec(
    handle,
    "select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = 'products' and indexname not like '%pkey'",
  )) as {
    indexname: string;
    indexdef: string;
  }[];
  for (const ix of indexes) await exec(handle, `drop index "${ix.indexname}"`);
  // The change feed's triggers are for live writes: a bulk load is not news to any cache.
  await exec(handle, "alter table products disable trigger products_catalog_insert_delete");
  // The word counts (migration 0031) are rebuilt once after the load instead of upserted per row.
  await exec(handle, "alter table products disable trigger products_term_counts_insert_delete");
  const productCols = [
    "id",
    "seller_id",
    "category_id",
    "booth_id",
    "title",
    "description",
    "price",
    "currency",
    "moq",
    "accepts_oem",
    "images",
    "keywords",
    "is_hidden",
    "search_text",
    "title_norm",
    "cjk_grams",
    "tokens",
    "keywords_norm",
    "search_version",
    "created_at",
    "updated_at",
  ];
  const productIds: string[] = [];
  const owned: { id: string; seller: number }[] = [];
  let rows: string[] = [];
  let keywordTotal = 0;
  for (let i = 0; i < PRODUCTS; i++) {
    const booth = booths[i % BOOTHS]!;
    const lang = r() < 0.5 ? booth.seller.lang : pick(r, LANGUAGES);
    const title =
      join(
        lang,
        Array.from({ length: int(r, 2, 4) }, () => word(lang)),
      ) + (r() < 0.3 ? ` ${word("en")}` : "");
    const description = join(
      lang,
      Array.from({ length: int(r, 6, 14) }, () => word(lang)),
    );
    const keywords = keywordSet(lang);
    keywordTotal += keywords.length;
    const created = new Date(BASE_TIME - Math.floor(r() * 365 * DAY));
    const id = seededId(created.getTime());
    const hidden = r() < 0.01;
    if (!hidden) productIds.push(id);
    const sellerIndex = (i % BOOTHS) % SELLERS;
    if (!hidden && sellerIndex < WRITERS && owned.length < OWNED_MAX) owned.push({ id, seller: sellerIndex });
    const cols = searchColumns({ title, description, keywords });
    const price = (Math.round(Math.exp(r() * Math.log(500_000)) + int(r, 0, 99)) / 100).toFixed(2);
    rows.push(
      line([
        id,
        booth.seller.profileId,
        pick(r, categoryIds),
        booth.id,
        title,
        description,
        price,
        pick(r, CURRENCIES),
        int(r, 1, 1000),
        r() < 0.4,
        [],
        keywords,
        hidden,
        cols.searchText,
        cols.titleNorm,
        cols.cjkGrams,
        cols.tokens,
        cols.keywordsNorm,
        cols.searchVersion,
        created,
        created,
      ]),
    );
    if (rows.length === 20_000) {
      await copyRows(handle, "products", productCols, rows);
      rows = [];
      log(`${i + 1} products`);
    }
  }
  if (rows.length) await copyRows(handle, "products", productCols, rows);
  log(`${PRODUCTS} products, ${keywordTotal} keywords; rebuilding ${indexes.length} indexes`);
  if (handle.kind === "postgres") await exec(handle, "set maintenance_work_mem = '512MB'");
  for (const ix of indexes) await exec(handle, ix.indexdef);
  await exec(handle, "alter table products enable trigger products_catalog_insert_delete");
  await exec(handle, "alter table products enable trigger products_term_counts_insert_delete");
  await exec(handle, "select catalog_term_counts_rebuild()");
  await exec(handle, "analyze");
  log("indexes rebuilt, analyzed");

  // Sessions and Bearer tokens for the chat scenario (every token has its session row).
  const sessionRows: string[] = [];
  const tokens: string[] = [];
  const expires = new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
  for (const s of sellers) {
    const sid = seededId(Date.now());
    sessionRows.push(line([sid, s.userId, "token", expires]));
    tokens.push(await signAccessToken({ sub: s.userId, sid, role: "SELLER", isAI: false }, expires));
  }
  await copyRows(handle, "sessions", ["id", "user_id", "kind", "expires_at"], sessionRows);

  // Scenario 4's conversations (its pairs for 1,000 and for 200 sockets), so it measures messages
  // in existing threads rather than thread creation.
  const pairRows = new Map<string, string>();
  for (const [a, b] of [...pairSet(1000, 5000), ...pairSet(200, 1000)]) {
    const [x, y] = [sellers[a]!.userId, sellers[b]!.userId].sort() as [string, string];
    if (!pairRows.has(`${x}:${y}`)) pairRows.set(`${x}:${y}`, line([seededId(BASE_TIME), x, y, new Date(BASE_TIME)]));
  }
  await copyRows(handle, "conversations", ["id", "user_a", "user_b", "created_at"], [...pairRows.values()]);

  const manifest = {
    seed: SEED,
    engine: handle.kind,
    counts: { products: PRODUCTS, sellers: SELLERS, booths: BOOTHS, categories: categoryIds.length, keywords: keywordTotal },
    password: BENCH_PASSWORD,
    sellers: sellers.map((s, i) => ({ id: s.userId, username: s.username, email: s.email, token: tokens[i] })),
    productIds: sampleOf(productIds, 2000),
    // Products of the first WRITERS sellers (index into `sellers`), for scenario 8's updates.
    owned,
    categories: seeded.filter((c) => !c.parent_id).map((c) => c.slug),
    searchQueries: searchQueries(2000),
    listUrls: listUrls(
      500,
      seeded.filter((c) => !c.parent_id).map((c) => c.slug),
    ),
    seconds: (Date.now() - t0) / 1000,
  };
  writeFileSync(path.join(OUT, "manifest.json"), JSON.stringify(manifest));
  log(`manifest written to ${path.relative(process.cwd(), OUT)}`);
  await closeDatabase();
}

function sampleOf<T>(list: T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n && list.length; i++) out.push(list[Math.floor(r() * list.length)]!);
  return out;
}

/**
 * Drop accents the way a hurried typist would ("cafe" for "café"); Devanagari vowel signs are
 * letters, not accents, and nobody leaves them out.
 */
const plain = stripAccents;

/**
 * Search queries, Zipf-distributed over each language's words; 25% are 1-2 character CJK queries
 * (a word of up to two characters, or the first one or two characters of a longer one).
 */
function searchQueries(n: number): { q: string; cls: "cjk-short" | "cjk" | "other" }[] {
  const out: { q: string; cls: "cjk-short" | "cjk" | "other" }[] = [];
  for (let i = 0; i < n; i++) {
    if (r() < 0.25) {
      const w = [...word(pick(r, CJK_LANGUAGES))];
      out.push({ q: w.slice(0, Math.min(w.length, int(r, 1, 2))).join(""), cls: "cjk-short" });
      continue;
    }
    const lang = pick(r, LANGUAGES);
    let q = r() < 0.15 ? join(lang, [word(lang), word(lang)]) : word(lang);
    if (lang === "zh" || lang === "ja") q = word(lang); // joined CJK pairs rarely occur verbatim
    if (!isCjkText(q) && r() < 0.1) q = plain(q);
    if (!isCjkText(q) && r() < 0.1) q = q.toUpperCase();
    out.push({ q, cls: isCjkText(q) ? ([...q].length <= 2 ? "cjk-short" : "cjk") : "other" });
  }
  return out;
}

/** GET /api/products?keyword=&category=&minPrice=&maxPrice=&limit=100 (spec 4.2's agent call). */
function listUrls(n: number, categories: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = new URLSearchParams();
    const lang = pick(r, LANGUAGES);
    if (r() < 0.8) p.set("keyword", word(lang));
    if (r() < 0.5) p.set("category", pick(r, categories));
    if (r() < 0.5) {
      const lo = int(r, 0, 200);
      p.set("minPrice", String(lo));
      p.set("maxPrice", String(lo + int(r, 50, 3000)));
    }
    p.set("limit", "100");
    out.push(`/api/products?${p}`);
  }
  return out;
}

main().catch(async (err: unknown) => {
  console.error(err);
  await closeDatabase().catch(() => {});
  process.exit(1);
});
