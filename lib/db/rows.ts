// The rows of a raw SQL query, whichever driver answers (postgres.js gives an array, PGlite `{ rows }`).
import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

export async function sqlRows<T>(db: Db, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown;
  return (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];
}
