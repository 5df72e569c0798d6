import { describe, expect, inject, it } from "vitest";
import { startServer } from "../support/server";

// The embedded store: one process per directory, and data that survives a restart.
describe.runIf(inject("dbKind") === "pglite")("PGlite store", () => {
  it("refuses a second process on the same directory and keeps data across a restart", async () => {
    const first = await startServer({ DATABASE_URL: "" });
    try {
      const username = `restart_${Date.now().toString(36)}`;
      const created = await fetch(`${first.url}/api/accounts/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `${username}@example.test`, username, password: "long-enough-1", role: "BUYER" }),
      });
      expect(created.status).toBe(201);

      await expect(startServer({ DATABASE_URL: "" }, { dataDir: first.dataDir, timeoutMs: 30_000 })).rejects.toThrow(/already in use by another process/);

      expect(await first.stop("SIGTERM")).toBe(0);
      const second = await startServer({ DATABASE_URL: "" }, { dataDir: first.dataDir });
      try {
        const login = await fetch(`${second.url}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: username, password: "long-enough-1" }),
        });
        expect(login.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  }, 120_000);
});
