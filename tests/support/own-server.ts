// A server of the test file's own, with direct access to its database: for tests that compare the
// whole database before and after (table checksums) or tamper with stored rows, which the shared
// server cannot offer (other files write to it in parallel).
//
// PostgreSQL (DATABASE_URL set): a fresh database on the cluster; the test connects to it directly
// while the server runs. PGlite: only one process may open the directory, so `withDb` stops the
// server (SIGTERM, a clean close), opens the directory itself, and starts the server again on the
// same port and data directory (same AUTH_SECRET, so tokens stay valid).
import postgres from "postgres";
import { openPglite } from "@/lib/db/client";
import { freePort, startServer, type RunningServer } from "./server";

export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
export type OwnServer = {
  url: string;
  kind: "pglite" | "postgres";
  /** Run `fn` with direct SQL access to the server's database. */
  withDb: <T>(fn: (q: Query) => Promise<T>) => Promise<T>;
  output: () => string;
  stop: () => Promise<void>;
};

export async function startOwnServer(): Promise<OwnServer> {
  const pgUrl = process.env.DATABASE_URL;
  const port = await freePort();
  if (pgUrl) {
    const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
    const name = `own_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    const server = await startServer({ DATABASE_URL: url.toString() }, { port });
    const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
    return {
      url: server.url,
      kind: "postgres",
      withDb: (fn) => fn((text, params) => sql.unsafe(text, (params ?? []) as never[]) as never),
      output: server.output,
      stop: async () => {
        await server.stop();
        await sql.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  let server: RunningServer = await startServer({ DATABASE_URL: "" }, { port });
  const dataDir = server.dataDir;
  let log = "";
  return {
    url: server.url,
    kind: "pglite",
    withDb: async (fn) => {
      log += server.output();
      const code = await server.stop("SIGTERM");
      if (code !== 0) throw new Error(`server exited with ${code}:\n${server.output().slice(-3000)}`);
      const handle = await openPglite(`${dataDir}/pglite`);
      try {
        return await fn(async (text, params) => (await handle.client.query(text, params as unknown[])).rows as never);
      } finally {
        await handle.client.close();
        handle.lock.release();
        server = await startServer({ DATABASE_URL: "" }, { dataDir, port });
      }
    },
    output: () => log + server.output(),
    stop: async () => {
      await server.stop();
    },
  };
}

export type Checksums = Record<string, string>;

/**
 * One md5 per table of the public schema over all its rows (each row as text, sorted), so any
 * insert, update or delete anywhere shows. `except` leaves out tables that legitimately change
 * on every request.
 */
export async function tableChecksums(q: Query, except: string[] = []): Promise<Checksums> {
  const tables = (await q<{ t: string }>(`select tablename as t from pg_tables where schemaname = 'public' order by tablename`)).map((r) => r.t);
  const out: Checksums = {};
  for (const t of tables.filter((t) => !except.includes(t))) {
    const [row] = await q<{ sum: string; n: unknown }>(
      `select md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as sum, count(*) as n from "${t}" x`,
    );
    out[t] = `${String(row!.n)}:${row!.sum}`;
  }
  return out;
}

/** Tables whose checksums differ (added, removed or changed). */
export function changedTables(before: Checksums, after: Checksums): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]).sort();
}
