// Scenario 2's baseline runs the very SQL the app runs: this records, for every list URL of the
// manifest, the statements searchProducts builds (productQueries: the same query builder, the same
// parameters, rendered with toSQL()) so bench/servers/catalog.ts can replay them with postgres.js
// or PGlite, with the app's rule of counting only when the page is full. The statements are built
// on an in-memory PGlite with the app's migrations: the text depends only on the query builder.
//
//   node --import tsx bench/capture-sql.ts MANIFEST OUT
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { readFileSync, writeFileSync } from "node:fs";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { Db } from "@/lib/db/client";
import { migrationsFolder } from "@/lib/db/migrate";
import * as schema from "@/lib/db/schema";
import { ProductListQuery } from "@/lib/schemas/products";
import { productQueries } from "@/lib/services/catalog/search";

const [manifestFile, outFile] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestFile!, "utf8")) as { listUrls: string[] };

async function main() {
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
  const db = drizzle(client, { schema }) as unknown as Db;
  const out: Record<string, { statements: { sql: string; params: unknown[] }[]; limit: number; page: number; locale: string }> = {};
  for (const url of manifest.listUrls) {
    const q = ProductListQuery.parse(Object.fromEntries(new URL(url, "http://x").searchParams));
    // GET /api/products: facets off, anonymous caller (no own store): the rows, then the count.
    const { rows, count } = productQueries(db, q, null);
    out[url] = { statements: [rows.toSQL(), count.toSQL()], limit: q.limit, page: q.page, locale: q.locale };
  }
  writeFileSync(outFile!, JSON.stringify(out));
  console.log(`captured ${Object.keys(out).length} URLs, ${Object.values(out)[0]?.statements.length ?? 0} statements each`);
  await client.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
