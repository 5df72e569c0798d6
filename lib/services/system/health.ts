// Database health: a trivial query with a short deadline.
import { sql } from "drizzle-orm";
import { dbHandle, drizzleFor } from "@/lib/db/client";
import pkg from "@/package.json";

export async function checkDatabase(timeoutMs = 2000) {
  let kind: "pglite" | "postgres" | undefined;
  try {
    const handle = await dbHandle();
    kind = handle.kind;
    await Promise.race([
      drizzleFor(handle).execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error("database timeout")), timeoutMs).unref()),
    ]);
    return { status: "ok" as const, db: "ok" as const, version: pkg.version, dbKind: kind };
  } catch {
    return { status: "error" as const, db: "down" as const, version: pkg.version, ...(kind ? { dbKind: kind } : {}) };
  }
}
