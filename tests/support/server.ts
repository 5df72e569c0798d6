// Start the real app (server.ts, production build) as a child process on a free port.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  output: () => string;
  /** SQL on the server's own database over the IPC channel (only with `opts.sql`: lib/server/test-sql.ts). */
  sql: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A PGlite store made once per integration run by the global setup (created, migrated and seeded by the
 * server itself, then closed): a server on a new data directory starts from a copy of it. A first start
 * took 8.4 s of CPU here (initdb and every migration in WebAssembly), a start on an existing store 3.7 s
 * (both with the server loaded through tsx; the bundled server saves ~1.2 s of each), and the integration
 * steps start ~30 such servers on a 2-core runner. `fresh: true` (and any given
 * `dataDir`) creates the store as a first start does.
 */
export const PGLITE_TEMPLATE = "EXPO_TEST_PGLITE_TEMPLATE";

export async function startServer(
  extraEnv: Record<string, string | undefined> = {},
  opts: { dataDir?: string; fresh?: boolean; timeoutMs?: number; port?: number; sql?: boolean; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<RunningServer> {
  const root = path.resolve(__dirname, "../..");
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(process.env.EXPO_TEST_TMP ?? tmpdir(), "expo-trade-test-"));
  const pglite = !("DATABASE_URL" in extraEnv ? extraEnv.DATABASE_URL : process.env.DATABASE_URL);
  const template = process.env[PGLITE_TEMPLATE];
  if (pglite && !opts.dataDir && !opts.fresh && template && existsSync(template)) cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
  let log = "";
  // The production build (scripts/build.mjs); a build older than the sources is refused with a message.
  const child = spawn(process.execPath, ["scripts/serve.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NEXTAUTH_URL: `http://localhost:${port}`,
      SEED_DEMO: "0",
      WS_AUTH_TIMEOUT_MS: "1500",
      // Commits not synced to disk, as in the throwaway PostgreSQL cluster (fsync=off): a PGlite server spent 10-14%
      // of its busy time in fdatasync here (~6 ms a call on a slower VM), blocking its event loop. Killing the
      // process still loses nothing committed; durability.test.ts turns syncing on for what it tests.
      PGLITE_FSYNC: "0",
      // bcrypt at cost 4 (~1 ms a hash instead of ~90 at 10): a test run signs in and registers ~1,300 times per
      // engine, and the PostgreSQL step took 249 s instead of 354 s with it. Tests of hashing's cost itself (its time,
      // the unknown name's dummy comparison) start a server at 10: tests/integration/hashing.test.ts.
      BCRYPT_COST: "4",
      BCRYPT_TEST_LOW_COST: "1",
      ADMIN_USERNAME: "test_admin",
      ADMIN_PASSWORD: "test-admin-password",
      RATE_LIMIT_ANON_PER_HOUR: "1000000",
      RATE_LIMIT_USER_PER_HOUR: "1000000",
      // Brute-force brakes out of reach for the shared server (tests/integration/brute-force.test.ts runs its own).
      LOGIN_MAX_FAILURES_PER_ACCOUNT: "1000000",
      LOGIN_MAX_FAILURES_PER_IP: "1000000",
      ...(opts.sql ? { EXPO_TEST_SQL_IPC: "1" } : {}),
      ...extraEnv,
    },
    stdio: opts.sql ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  opts.onSpawn?.(child);
  let asked = 0;
  const waiting = new Map<number, { resolve: (rows: never[]) => void; reject: (err: Error) => void }>();
  child.on("message", (m: { type?: string; id: number; rows?: never[]; error?: string }) => {
    if (m?.type !== "expo-test-sql") return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error !== undefined) w?.reject(new Error(m.error));
    else w?.resolve(m.rows ?? []);
  });
  const sql = <T>(text: string, params: unknown[] = []) =>
    new Promise<T[]>((resolve, reject) => {
      if (!opts.sql) return reject(new Error("startServer(..., { sql: true }) enables SQL over IPC"));
      const id = ++asked;
      waiting.set(id, { resolve: resolve as (rows: never[]) => void, reject });
      child.send({ type: "expo-test-sql", id, text, params });
    });
  child.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}:\n${log}`);
    try {
      // Healthy, and listening as our child: under parallel runs another process may briefly hold
      // the port our child is about to fail to bind.
      const res = await fetch(`${url}/api/health`);
      if (res.ok && log.includes(`ready on http://localhost:${port} `)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const stop = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<number | null>((resolve) => {
      // Also when something else (a test, by pid) already killed it.
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill(signal);
    });
  return { url, port, dataDir, child, stop, output: () => log, sql };
}
