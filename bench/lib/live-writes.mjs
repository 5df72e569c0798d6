// Scenario 8's writers: sellers signed in through the API, the seeded stream of their product
// updates and new products, and the freshness probe (contract 9.3: a committed change shows in
// lists and searches within one second, on the product's own page at once).
import { performance } from "node:perf_hooks";
import { getJson } from "./open-loop.mjs";
import { int, LANGUAGES, loadWords, pick, rng, zipf } from "./rand.mjs";

const words = loadWords();
const zipfOf = Object.fromEntries(LANGUAGES.map((l) => [l, zipf(words[l].length, 1.0)]));
const word = (r, lang) => words[lang][zipfOf[lang](r)];
const phrase = (r, lang, n) => Array.from({ length: n }, () => word(r, lang)).join(lang === "zh" || lang === "ja" ? "" : " ");
const keywords = (r) => [...new Set(Array.from({ length: int(r, 3, 20) }, () => word(r, pick(r, LANGUAGES))))];
const price = (r) => Math.round(100 + r() * 499_900) / 100;

/** Sign in (POST /api/auth/login, the seeded password) as every seller that owns `owned`. */
export async function signInWriters(base, manifest) {
  if (!manifest.owned?.length) throw new Error("the manifest has no `owned` products: regenerate the data (bench/generate.ts)");
  const tokens = new Map();
  for (const idx of new Set(manifest.owned.map((o) => o.seller))) {
    const s = manifest.sellers[idx];
    const res = await getJson(base, "/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: s.email, password: manifest.password }),
    });
    if (res.status !== 200 || !res.body.token) throw new Error(`sign-in of ${s.email} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    tokens.set(idx, res.body.token);
  }
  return tokens;
}

const auth = (token) => ({
  "content-type": "application/json",
  authorization: `Bearer ${token}`,
});

/** PUT /api/products/:id by its seller: a new price (half), title or keyword set (a quarter each). */
export function updateStream(manifest, tokens, seed = 81) {
  const r = rng(seed);
  return () => {
    const o = pick(r, manifest.owned);
    const x = r();
    const lang = pick(r, LANGUAGES);
    const body = x < 0.5 ? { price: price(r) } : x < 0.75 ? { title: phrase(r, lang, int(r, 2, 4)) } : { keywords: keywords(r) };
    return {
      method: "PUT",
      path: `/api/products/${o.id}`,
      headers: auth(tokens.get(o.seller)),
      body: JSON.stringify(body),
      tag: Object.keys(body)[0],
    };
  };
}

function newProduct(r, manifest) {
  const lang = pick(r, LANGUAGES);
  return {
    title: phrase(r, lang, int(r, 2, 4)),
    description: phrase(r, lang, 8),
    price: price(r),
    currency: "USD",
    category: pick(r, manifest.categories),
    moq: int(r, 1, 500),
    keywords: keywords(r),
  };
}

/** POST /api/products by one of the signed-in sellers. */
export function createStream(manifest, tokens, seed = 82) {
  const r = rng(seed);
  const sellers = [...tokens.keys()];
  return () => ({
    method: "POST",
    path: "/api/products",
    headers: auth(tokens.get(pick(r, sellers))),
    body: JSON.stringify(newProduct(r, manifest)),
    tag: "create",
  });
}

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/**
 * One freshness probe: read a list or search that shows one of the seller's products (so it is
 * cached if the app caches it), change the product (a new price) or add one with the same keyword,
 * then read that list again every `pollMs` until the change shows. The delay runs from the end of
 * the write's answer to the end of the first read that shows it (an upper bound). Also checks that
 * the product's own page (GET /api/products/:id) shows a new price at once.
 */
export async function probeOnce(base, manifest, tokens, r, kind, { pollMs = 50, maxMs = 10_000 } = {}) {
  const o = pick(r, manifest.owned);
  const token = tokens.get(o.seller);
  const detail = await getJson(base, `/api/products/${o.id}`);
  if (detail.status !== 200) return { kind, skipped: `detail ${detail.status}` };
  const p = detail.body.product;
  const kw = p.keywords[0];
  if (!kw) return { kind, skipped: "no keyword" };
  // A new product is looked for among the store's newest with that keyword.
  const q = new URLSearchParams({
    sellerId: p.seller.id,
    limit: "100",
    ...(kind === "create" ? { sort: "newest" } : {}),
  });
  const url = kind === "search" ? `/api/products/search?q=${encodeURIComponent(kw)}&${q}` : `/api/products?keyword=${encodeURIComponent(kw)}&${q}`;
  const before = await getJson(base, url);
  if (before.status !== 200) return { kind, error: `read ${before.status}` };
  if (kind !== "create" && !before.body.products.some((x) => x.id === p.id)) return { kind, skipped: "not listed" };
  let shows;
  let writeMs;
  let staleDetail = false;
  let t0 = performance.now();
  if (kind === "create") {
    const body = { ...newProduct(r, manifest), keywords: [kw] };
    const res = await getJson(base, "/api/products", {
      method: "POST",
      headers: auth(token),
      body: JSON.stringify(body),
    });
    writeMs = performance.now() - t0;
    t0 = performance.now();
    if (res.status !== 201) return { kind, error: `create ${res.status}` };
    const id = res.body.product.id;
    shows = (page) => page.products.some((x) => x.id === id);
  } else {
    const want = Math.round((p.price + 0.01 + r() * 100) * 100) / 100;
    const res = await getJson(base, `/api/products/${p.id}`, {
      method: "PUT",
      headers: auth(token),
      body: JSON.stringify({ price: want }),
    });
    writeMs = performance.now() - t0;
    if (res.status !== 200) return { kind, error: `update ${res.status}` };
    t0 = performance.now();
    const own = await getJson(base, `/api/products/${p.id}`);
    staleDetail = own.body?.product?.price !== want;
    shows = (page) => page.products.some((x) => x.id === p.id && x.price === want);
  }
  for (;;) {
    const page = await getJson(base, url);
    const ms = performance.now() - t0;
    if (page.status === 200 && shows(page.body)) return { kind, delayMs: Math.round(ms * 10) / 10, writeMs, staleDetail };
    if (ms > maxMs) return { kind, delayMs: maxMs, writeMs, staleDetail, neverShown: true };
    await sleep(pollMs);
  }
}

/** Probes every `everyMs` until `stop()` is called; kinds rotate list, search, create. */
export function probeLoop(base, manifest, tokens, everyMs, seed = 83) {
  const r = rng(seed);
  const kinds = ["list", "search", "create"];
  const results = [];
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const t = performance.now();
      results.push(
        await probeOnce(base, manifest, tokens, r, kinds[i % kinds.length]).catch((err) => ({
          kind: kinds[i % kinds.length],
          error: String(err),
        })),
      );
      await sleep(Math.max(0, everyMs - (performance.now() - t)));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return results;
    },
  };
}
