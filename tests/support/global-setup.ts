// Integration runs start one real server (PGlite, or PostgreSQL when DATABASE_URL is set) and hand
// its URL to the tests.
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
  server = await startServer({ DATABASE_URL: process.env.DATABASE_URL ?? "" });
  project.provide("baseUrl", server.url);
  project.provide("dbKind", process.env.DATABASE_URL ? "postgres" : "pglite");
  project.provide("dataDir", server.dataDir);
}

export async function teardown() {
  const code = await server?.stop("SIGTERM");
  if (code !== 0 && server) console.error(`server exited with ${code}\n${server.output().slice(-4000)}`);
}
