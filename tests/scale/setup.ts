// The scale test's world (docs/scaling.md): a throwaway PostgreSQL cluster, two app instances on it
// with the same AUTH_SECRET and one upload directory (standing for shared storage), and nginx with
// docs/nginx.conf in front of both. Tests talk to nginx (`baseUrl`) unless they aim at one instance.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startNginx } from "../../scripts/nginx.mjs";
import { startCluster } from "../../scripts/pg-cluster.mjs";
import { freePort, startServer, type RunningServer } from "../support/server";

export type ScaleWorld = {
  nginxUrl: string;
  databaseUrl: string;
  /** Per instance: its own URL, its pid (to kill it) and its address as nginx's X-Upstream names it. */
  instances: { url: string; pid: number; upstream: string }[];
  anonLimit: number;
};

declare module "vitest" {
  export interface ProvidedContext {
    scale: ScaleWorld;
  }
}

/** Anonymous requests per IP and window: small enough to exceed, large enough for the tests' own sign-ups. */
const ANON_LIMIT = 40;

let cleanup: (() => Promise<void>)[] = [];

export async function setup(project: TestProject) {
  const t0 = Date.now();
  try {
    const cluster = await startCluster();
    cleanup.push(async () => cluster.stop());
    const uploadDir = mkdtempSync(path.join(tmpdir(), "expo-trade-shared-uploads-"));
    chmodSync(uploadDir, 0o755);
    cleanup.push(async () => rmSync(uploadDir, { recursive: true, force: true }));
    const nginxPort = await freePort();
    const nginxUrl = `http://127.0.0.1:${nginxPort}`;
    const env = {
      DATABASE_URL: cluster.url("postgres"),
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      NEXTAUTH_URL: nginxUrl,
      UPLOAD_DIR: uploadDir,
      TRUST_PROXY: "1",
      RATE_LIMIT_ANON_PER_HOUR: String(ANON_LIMIT),
      // A day-long window, so the counting cannot straddle a window boundary mid-test.
      RATE_LIMIT_WINDOW_SECONDS: "86400",
    };
    const servers: RunningServer[] = [];
    // Both start together; migrations take turns under PostgreSQL's advisory lock.
    // Two production servers starting at once on a busy 2-core machine: give them time.
    const started = await Promise.allSettled([startServer(env, { timeoutMs: 180_000 }), startServer(env, { timeoutMs: 180_000 })]);
    for (const s of started) if (s.status === "fulfilled") servers.push(s.value);
    cleanup.push(async () => {
      for (const s of servers) await s.stop("SIGTERM");
    });
    for (const s of started) if (s.status === "rejected") throw s.reason;
    const nginx = await startNginx({
      port: nginxPort,
      upstreams: servers.map((s) => `127.0.0.1:${s.port}`),
      // Test only: name the instance that answered (nginx lists every one it tried, comma-separated).
      serverExtra: "  add_header X-Upstream $upstream_addr always;",
    });
    cleanup.push(() => nginx.stop());
    project.provide("baseUrl", nginx.url);
    project.provide("dbKind", "postgres");
    project.provide("dataDir", servers[0]!.dataDir);
    project.provide("scale", {
      nginxUrl: nginx.url,
      databaseUrl: cluster.url("postgres"),
      instances: servers.map((s) => ({ url: s.url, pid: s.child.pid!, upstream: `127.0.0.1:${s.port}` })),
      anonLimit: ANON_LIMIT,
    });
    console.log(`scale setup: PostgreSQL, 2 instances and nginx ready in ${Date.now() - t0} ms`);
  } catch (err) {
    await teardown();
    throw err;
  }
}

export async function teardown() {
  const steps = cleanup.reverse();
  cleanup = [];
  for (const step of steps) await step().catch((err: unknown) => console.error("scale teardown:", err));
}
