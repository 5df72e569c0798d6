// Integration runs start one real server (PGlite, or PostgreSQL when DATABASE_URL is set) and hand
// its URL to the tests.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import "vitest";
import type { TestProject } from "vitest/node";
import { PGLITE_MIGRATED, writeMigratedPglite } from "./db";
import { PGLITE_TEMPLATE, startServer, type RunningServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dbKind: "pglite" | "postgres";
    /** The server's DATA_DIR (its generated AUTH_SECRET lives there, for a second instance). */
    dataDir: string;
  }
}

let server: RunningServer | undefined;

export async function setup(project: TestProject) {
  // Every server's data directory of this run goes below one directory, removed at the end (the
  // test workers inherit the variable; tests/support/server.ts reads it).
  process.env.EXPO_TEST_TMP = mkdtempSync(path.join(tmpdir(), "expo-trade-run-"));
  // PGlite: one store created by a first start, copied for every server on a new directory (tests/support/server.ts).
  // And an empty migrated in-memory store for the service-level tests' own databases (tests/support/db.ts), made
  // meanwhile.
  if (!process.env.DATABASE_URL) {
    const migrated = path.join(process.env.EXPO_TEST_TMP, "migrated-pglite.tar");
    const [template] = await Promise.all([startServer({ DATABASE_URL: "" }, { fresh: true }), writeMigratedPglite(migrated)]);
    const code = await template.stop("SIGTERM");
    if (code !== 0) throw new Error(`the template store's server exited with ${code}\n${template.output().slice(-4000)}`);
    process.env[PGLITE_TEMPLATE] = path.join(template.dataDir, "pglite");
    process.env[PGLITE_MIGRATED] = migrated;
  }
  // X-Query-Count on every API answer, for the N+1 test (query-counts.test.ts).
  server = await startServer({ DATABASE_URL: process.env.DATABASE_URL ?? "", DEBUG_QUERY_COUNT: "1" });
  project.provide("baseUrl", server.url);
  project.provide("dbKind", process.env.DATABASE_URL ? "postgres" : "pglite");
  project.provide("dataDir", server.dataDir);
}

export async function teardown() {
  const code = await server?.stop("SIGTERM");
  // npm test's digest looks up what the server logged for each request a failed test names.
  if (process.env.EXPO_TEST_SERVER_LOG && server) writeFileSync(process.env.EXPO_TEST_SERVER_LOG, server.output());
  if (code !== 0 && server) console.error(`server exited with ${code}\n${server.output().slice(-4000)}`);
  if (process.env.EXPO_TEST_TMP) rmSync(process.env.EXPO_TEST_TMP, { recursive: true, force: true });
}
