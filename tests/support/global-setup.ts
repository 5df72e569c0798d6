// Integration runs start one real server (PGlite, or PostgreSQL when DATABASE_URL is set) and hand
// its URL to the tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import "vitest";
import type { TestProject } from "vitest/node";
import { startServer, type RunningServer } from "./server";

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
  // X-Query-Count on every API answer, for the N+1 test (query-counts.test.ts).
  server = await startServer({ DATABASE_URL: process.env.DATABASE_URL ?? "", DEBUG_QUERY_COUNT: "1" });
  project.provide("baseUrl", server.url);
  project.provide("dbKind", process.env.DATABASE_URL ? "postgres" : "pglite");
  project.provide("dataDir", server.dataDir);
}

export async function teardown() {
  const code = await server?.stop("SIGTERM");
  if (code !== 0 && server) console.error(`server exited with ${code}\n${server.output().slice(-4000)}`);
  if (process.env.EXPO_TEST_TMP) rmSync(process.env.EXPO_TEST_TMP, { recursive: true, force: true });
}
