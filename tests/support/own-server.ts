// A server of the test file's own, with direct access to its database: for tests that compare the
// whole database before and after (table checksums) or tamper with stored rows, which the shared
// server cannot offer (other files write to it in parallel).
//
// PostgreSQL (DATABASE_URL set): a fresh database on the cluster; the test connects to it directly
// while the server runs. PGlite: only one process may open the directory, so the server runs the
// test's SQL on its own handle, asked over the IPC channel of the child process
// (lib/server/test-sql.ts; enabled only by that channel and EXPO_TEST_SQL_IPC=1).
import postgres from "postgres";
import { freePort, startServer } from "./server";

export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
export type OwnServer = {
  url: string;
  kind: "pglite" | "postgres";
  /** PostgreSQL: the server's database (another instance may be started on it). */
  databaseUrl?: string;
  /** Run `fn` with direct SQL access to the server's database. */
  withDb: <T>(fn: (q: Query) => Promise<T>) => Promise<T>;
  output: () => string;
  stop: () => Promise<void>;
};

export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const pgUrl = process.env.DATABASE_URL;
  const port = await freePort();
  if (pgUrl) {
    const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
    const name = `own_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    const server = await startServer({ ...env, DATABASE_URL: url.toString() }, { port, timeoutMs: 240_000 });
    const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
    return {
      url: server.url,
      kind: "postgres",
      databaseUrl: url.toString(),
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
  // PGlite: the server process is the only one that may open its database; SQL goes over IPC.
  const server = await startServer({ ...env, DATABASE_URL: "" }, { port, sql: true, timeoutMs: 240_000 });
  return {
    url: server.url,
    kind: "pglite",
    withDb: (fn) => fn(server.sql),
    output: server.output,
    stop: async () => {
      await server.stop();
    },
  };
}

export type Checksums = Record<string, string>;

/**
 * One md5 per table of the public schema over all its rows (each row as JSON, sorted), so any
 * insert, update or delete anywhere shows. `except` leaves out tables that legitimately change on
 * every request; `ignoreColumns` leaves out columns that do (e.g. an API key's `last_used_at`).
 */
export async function tableChecksums(q: Query, except: string[] = [], ignoreColumns: Record<string, string[]> = {}): Promise<Checksums> {
  const tables = (await q<{ t: string }>(`select tablename as t from pg_tables where schemaname = 'public' order by tablename`)).map((r) => r.t);
  const out: Checksums = {};
  for (const t of tables.filter((t) => !except.includes(t))) {
    const drop = (ignoreColumns[t] ?? []).map((c) => ` - '${c}'`).join("");
    const row = `(to_jsonb(x)${drop})::text`;
    const [r] = await q<{ sum: string; n: unknown }>(
      `select md5(coalesce(string_agg(${row}, E'\\n' order by ${row}), '')) as sum, count(*) as n from "${t}" x`,
    );
    out[t] = `${String(r!.n)}:${r!.sum}`;
  }
  return out;
}

/** Tables whose checksums differ (added, removed or changed). */
export function changedTables(before: Checksums, after: Checksums): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]).sort();
}
