// Search in scripts whose combining marks are letters (Devanagari vowel signs, kana voicing marks),
// and the start-up step that recomputes search columns stored by an older normalization.
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { SEARCH_NORMALIZATION_VERSION } from "@/lib/search/normalize";
import { api, createProduct, createSeller, login, useServer } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

type Page = { products: { id: string }[]; total: number };

const finder = (storeId: string) => async (q: string) =>
  (await api<Page>(`/api/products/search?q=${encodeURIComponent(q)}&sellerId=${storeId}`)).body.products.map((p) => p.id).sort();

describe("search in Devanagari and kana", () => {
  it("finds a Hindi title by its words and their prefixes, matras and all", async () => {
    const { token, storeId } = await createSeller();
    const book = await createProduct(token, { title: "हिंदी किताब", keywords: ["पुस्तक"] });
    const lamp = await createProduct(token, { title: "लैंप और बल्ब" });
    const find = finder(storeId);
    for (const q of ["किताब", "किता", "हिंदी", "हिंदी किताब", "पुस्तक", "पुस्त"]) expect(await find(q), q).toEqual([book.id]);
    for (const q of ["लैंप", "बल्ब", "और"]) expect(await find(q), q).toEqual([lamp.id]);
    // Without its vowel signs it is another word (the old normalization made them equal).
    expect(await find("कताब")).toEqual([]);
    // A word start is a word start: "ताब" is inside "किताब".
    expect(await find("ताब")).toEqual([]);
  });

  it("keeps voiced and unvoiced kana apart and finds every width and kana form of a word", async () => {
    const { token, storeId } = await createSeller();
    const voiced = await createProduct(token, { title: "Import lamp", keywords: ["ガイコク"] });
    const plain = await createProduct(token, { title: "Opening lamp", keywords: ["かいこく"] });
    const find = finder(storeId);
    for (const q of ["ガイコク", "がいこく", "ｶﾞｲｺｸ", "がい", "が"]) expect(await find(q), q).toEqual([voiced.id]);
    for (const q of ["かいこく", "カイコク", "かい", "か"]) expect(await find(q), q).toEqual([plain.id]);
    expect(await find("いこく")).toEqual([plain.id, voiced.id].sort());
  });
});

// The step runs at start-up: stale rows written behind the app's back are rewritten by the next
// instance to start (PGlite: the same directory restarted; PostgreSQL: a second instance).
describe("re-normalization at start-up", () => {
  it("rewrites a product whose stored search columns are stale, and an update only when its text changed or is stale", async () => {
    const pglite = inject("dbKind") === "pglite";
    let first: RunningServer | undefined = pglite ? await startServer({ DATABASE_URL: "" }, { sql: true }) : undefined;
    let second: RunningServer | undefined;
    const pg = pglite ? undefined : postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      if (first) useServer(first.url);
      const { user, token, storeId } = await createSeller();
      // Categories of this server (createProduct's default is cached from the shared one).
      const categories = (await api<{ categories: { id: string; parentId: string | null }[] }>("/api/categories")).body.categories;
      const category = categories.find((c) => c.parentId)!.id;
      const book = await createProduct(token, { title: "हिंदी किताब", keywords: ["ガイコク"], category });
      // What the old normalization stored: every combining mark dropped, words split at them.
      const stale = `update products set search_text = 'हद कतब • かいこく', title_norm = 'हद कतब', cjk_grams = '{か,い,こ,く,かい,いこ,こく}',
        tokens = '{हद,कतब,かいこく}', keywords_norm = '{かいこく}', search_version = 0 where id = $1`;
      const run = async (text: string, params: unknown[]) => (first ? await first.sql(text, params) : await pg!.unsafe(text, params as never[]));
      await run(stale, [book.id]);
      const find = finder(storeId);
      expect(await find("किताब")).toEqual([]);

      if (first) {
        expect(await first.stop("SIGTERM")).toBe(0);
        second = await startServer({ DATABASE_URL: "" }, { dataDir: first.dataDir, sql: true });
        first = undefined;
      } else second = await startServer();
      useServer(second.url);
      const query = second;
      const read = async () =>
        (pglite
          ? await query.sql(`select search_version, title_norm, tokens from products where id = $1`, [book.id])
          : await pg!.unsafe(`select search_version, title_norm, tokens from products where id = $1`, [book.id]))[0] as {
          search_version: number;
          title_norm: string;
          tokens: string[];
        };
      // The step runs in the background after start-up: wait for it (no timing asserted).
      for (let i = 0; i < 600 && (await read()).search_version !== SEARCH_NORMALIZATION_VERSION; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await read()).toEqual({ search_version: SEARCH_NORMALIZATION_VERSION, title_norm: "हिंदी किताब", tokens: ["हिंदी", "किताब", "がいこく"] });
      expect(await find("किताब")).toEqual([book.id]);
      expect(await find("ガイコク")).toEqual([book.id]);

      // An update that changes none of the text leaves the stored search columns as they are (a marker
      // stays); one that changes text, or any update of a row an older normalization wrote, writes them anew.
      const mark = (version: number) =>
        pglite
          ? query.sql(`update products set title_norm = 'marker', search_version = $2 where id = $1`, [book.id, version])
          : pg!.unsafe(`update products set title_norm = 'marker', search_version = $2 where id = $1`, [book.id, version]);
      // Signed in on the instance now running (on PostgreSQL a new one, which need not share the first's signing secret).
      const own = await login(user.username, user.password);
      const put = async (json: Record<string, unknown>) =>
        expect((await api(`/api/products/${book.id}`, { method: "PUT", token: own, json })).status).toBe(200);
      await mark(SEARCH_NORMALIZATION_VERSION);
      await put({ price: 9.5, moq: 3 });
      expect((await read()).title_norm).toBe("marker");
      await put({ keywords: ["ガイコク", "पुस्तक"] });
      expect(await read()).toEqual({ search_version: SEARCH_NORMALIZATION_VERSION, title_norm: "हिंदी किताब", tokens: ["हिंदी", "किताब", "がいこく", "पुस्तक"] });
      await mark(0);
      await put({ price: 10 });
      expect(await read()).toEqual({ search_version: SEARCH_NORMALIZATION_VERSION, title_norm: "हिंदी किताब", tokens: ["हिंदी", "किताब", "がいこく", "पुस्तक"] });
      expect(await find("पुस्तक")).toEqual([book.id]);
    } finally {
      useServer(undefined);
      await first?.stop();
      await second?.stop();
      await pg?.end();
    }
  }, 240_000);
});
