import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { startServer } from "../support/server";

// /api/health answers 503 while PostgreSQL refuses connections (within the second its last good
// probe is trusted), and recovers at the next request without a restart; meanwhile other routes answer
// 500 and log their stacks in TypeScript terms.
describe.runIf(inject("dbKind") === "postgres")("health when the database is down", () => {
  it("answers 503, then 200 again (a route needing the database: 500, its stack logged against the sources)", async () => {
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `health_${Date.now().toString(36)}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const server = await startServer({ DATABASE_URL: url.toString(), DATABASE_POOL_MAX: "2" });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      await admin.unsafe(`alter database ${name} allow_connections false`);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
      // A good probe is trusted for up to a second (lib/services/system/health.ts): until then the
      // answer may still be the last "ok"; after it, every answer is a fresh probe's.
      let down = await fetch(`${server.url}/api/health`);
      for (let i = 0; i < 50 && down.status === 200; i++) {
        expect(await down.json()).toMatchObject({ status: "ok", db: "ok" });
        await new Promise((r) => setTimeout(r, 200));
        down = await fetch(`${server.url}/api/health`);
      }
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: "error", db: "down" });
      // A failure is never kept as the answer: it is probed again, and stays down while it is.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(503);
      // Any other route needing the database fails as a 500 naming its request id, and the log has that id
      // with a stack naming the TypeScript sources: the source maps are read when the stack is printed
      // (scripts/stack-maps.mjs), not at start-up.
      const failed = await fetch(`${server.url}/api/categories`);
      expect(failed.status).toBe(500);
      const { requestId } = (await failed.json()) as { requestId: string };
      await expect.poll(() => server.output()).toContain(`[${requestId}] unhandled error`);
      const logged = server.output().slice(server.output().indexOf(`[${requestId}] unhandled error`));
      expect(logged).toMatch(/\n {4}at [^\n]*\(lib\/[\w/.-]+\.ts:\d+:\d+\)/);
      expect(logged.split("\n").slice(0, 12).join("\n")).not.toContain("expo-server.mjs");
      await admin.unsafe(`alter database ${name} allow_connections true`);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 60_000);
});
