// Baselines of scenarios 2, 3, 6 and 9 on raw node:http and a raw driver (postgres.js or PGlite):
//   GET /api/products?...        the app's captured SQL for that URL, same JSON (productView)
//   GET /api/products/search?q=  the sequential-scan ILIKE ground truth: 20 rows, total, facets
//   GET /truth?q=                every id (and its store) the ground truth matches (recall)
//   GET /exact/search?q=         issue #6's search frozen as fixed SQL (exact-search.ts), app JSON
//   GET /exact/count?q=          how many products that search matches
//   GET /zh/products/:id         the app's page tree (from an HTML snapshot) read and rendered with
//                                renderToString on its first request, then served from memory
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { localizedName } from "@/lib/services/catalog/categories";
import { productView } from "@/lib/services/catalog/product-view";
import { openRaw, productRow } from "./db";
import { exactCount, exactSearch } from "./exact-search";
import { loadTrees, renderTree } from "../lib/html-tree";
import { truthWhere } from "../lib/truth.mjs";

type Row = Record<string, unknown>;
type Captured = Record<string, { statements: { sql: string; params: unknown[] }[]; limit: number; page: number; locale: string }>;

async function main() {
  const db = await openRaw();
  const captured: Captured = process.env.BENCH_SQL ? JSON.parse(readFileSync(process.env.BENCH_SQL, "utf8")) : {};
  const trees = process.env.BENCH_SSR_DIR ? loadTrees(process.env.BENCH_SSR_DIR) : new Map();
  const pages = new Map<string, Buffer>();
  const view = (r: Row, locale: string) =>
    productView(
      productRow(r),
      { id: String(r.seller_id), companyName: String(r.company_name), country: (r.country as string) ?? null },
      localizedName(r.names as Record<string, string>, locale),
    );

  async function list(url: string) {
    const c = captured[url];
    if (!c) return null;
    const [rowsStmt, countStmt] = c.statements;
    const rows = (await db.query(rowsStmt!.sql, rowsStmt!.params)) as Row[];
    // As the app does: a page that is not full ends the list, so only a full page is counted.
    const offset = (c.page - 1) * c.limit;
    const ended = rows.length < c.limit && (rows.length > 0 || c.page === 1);
    const total = ended ? offset + rows.length : Number(((await db.query(countStmt!.sql, countStmt!.params)) as Row[])[0]?.count ?? 0);
    // Contract 9.3: exact up to 10,000, then "at least" (the captured count stops past it).
    return {
      products: rows.map((r) => view(r, c.locale)),
      page: c.page,
      limit: c.limit,
      total: Math.min(total, 10_000),
      totalRelation: total > 10_000 ? "gte" : "eq",
    };
  }

  async function scan(q: string, limit: number) {
    const { where, params } = truthWhere(q);
    const from = "from products p join seller_profiles sp on sp.id = p.seller_id join categories c on c.id = p.category_id";
    const rows = (await db.query(
      `select p.*, sp.company_name, sp.country, c.names ${from} where ${where} order by p.created_at desc, p.id desc limit ${limit}`,
      params,
    )) as Row[];
    const [total] = (await db.query(`select count(*) as n from products p where ${where}`, params)) as Row[];
    const facets = (await db.query(
      `select p.category_id as id, count(*) as n, c.names ${from} where ${where} group by p.category_id, c.names order by count(*) desc limit 50`,
      params,
    )) as Row[];
    return {
      products: rows.map((r) => view(r, "en")),
      page: 1,
      limit,
      total: Number(total?.n ?? 0),
      facets: { categories: facets.map((f) => ({ id: f.id, name: localizedName(f.names as Record<string, string>, "en"), count: Number(f.n) })) },
    };
  }

  createServer((req, res) => {
    const url = req.url ?? "/";
    const u = new URL(url, "http://x");
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "Content-Type": type });
      res.end(body);
    };
    const work = async () => {
      if (u.pathname === "/api/products") {
        const body = await list(url);
        return body ? send(200, "application/json; charset=utf-8", JSON.stringify(body)) : send(404, "text/plain", "not captured");
      }
      if (u.pathname === "/truth") {
        // Every matching id, for the recall measurement.
        const { where, params } = truthWhere(u.searchParams.get("q") ?? "");
        const rows = await db.query(`select p.id, p.seller_id from products p where ${where}`, params);
        return send(200, "application/json", JSON.stringify({ ids: rows.map((r) => r.id), sellers: rows.map((r) => r.seller_id) }));
      }
      if (u.pathname === "/api/products/search") {
        return send(
          200,
          "application/json; charset=utf-8",
          JSON.stringify(await scan(u.searchParams.get("q") ?? "", Number(u.searchParams.get("limit") ?? 20))),
        );
      }
      if (u.pathname === "/exact/search") {
        const q = u.searchParams.get("q") ?? "";
        const limit = Number(u.searchParams.get("limit") ?? 20);
        const { rows, total, facets } = await exactSearch(db, q, limit);
        const categories = facets.map((f) => ({ id: String(f.id), name: localizedName(f.names as Record<string, string>, "en"), count: Number(f.n) }));
        return send(
          200,
          "application/json; charset=utf-8",
          JSON.stringify({ products: rows.map((r) => view(r, "en")), page: 1, limit, total, facets: { categories } }),
        );
      }
      if (u.pathname === "/exact/count") return send(200, "application/json", JSON.stringify({ n: await exactCount(db, u.searchParams.get("q") ?? "") }));
      const m = /^\/zh\/products\/([^/]+)$/.exec(u.pathname);
      if (m && trees.has(m[1]!)) {
        // A cached-HTML server: the product is read and its page rendered once, then served as is.
        let html = pages.get(m[1]!);
        if (html === undefined) {
          const [row] = (await db.query("select * from products where id = $1 and deleted_at is null", [m[1]])) as Row[];
          if (!row) return send(404, "text/plain", "no product");
          html = Buffer.from("<!DOCTYPE html>" + renderTree(trees.get(m[1]!)), "utf8");
          pages.set(m[1]!, html);
        }
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": html.length });
        return res.end(html);
      }
      send(404, "text/plain", "not found");
    };
    work().catch((err: unknown) => {
      console.error(err);
      send(500, "text/plain", String(err));
    });
  }).listen(Number(process.env.PORT), "127.0.0.1");
}

void main();
