import { describe, expect, inject, it } from "vitest";
import { startServer } from "../support/server";

// SIGTERM while writes are in flight: every acknowledged write is there after a restart.
describe.runIf(inject("dbKind") === "pglite")("graceful shutdown", () => {
  it("keeps every acknowledged write", async () => {
    const server = await startServer({ DATABASE_URL: "" });
    const acknowledged: string[] = [];
    const prefix = `sd${Date.now().toString(36)}`;
    const writes = Array.from({ length: 60 }, (_, i) =>
      fetch(`${server.url}/api/accounts/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `${prefix}_${i}@example.test`, username: `${prefix}_${i}`, password: "long-enough-1", role: "BUYER" }),
      })
        .then((r) => {
          if (r.status === 201) acknowledged.push(`${prefix}_${i}`);
        })
        .catch(() => {}),
    );
    await new Promise((r) => setTimeout(r, 150));
    const exit = server.stop("SIGTERM");
    await Promise.all(writes);
    expect(await exit).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(0);

    const again = await startServer({ DATABASE_URL: "" }, { dataDir: server.dataDir });
    try {
      for (const username of acknowledged) {
        const res = await fetch(`${again.url}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: username, password: "long-enough-1" }),
        });
        expect(res.status, username).toBe(200);
      }
    } finally {
      await again.stop();
    }
  }, 120_000);
});
