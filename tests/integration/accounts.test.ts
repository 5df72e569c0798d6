import { describe, expect, it } from "vitest";
import { api, createUser, login, unique } from "../support/api";

describe("POST /api/accounts/create", () => {
  it("creates a buyer and a seller (with store), and refuses duplicates case-insensitively", async () => {
    const username = unique("Acme_");
    const res = await api("/api/accounts/create", {
      json: { email: `${username}@example.test`, username, password: "long-enough-1", role: "SELLER", companyName: "Acme Ltd" },
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ username, role: "SELLER", email: `${username}@example.test` });
    expect(typeof (res.body.user as { id: string }).id).toBe("string");

    const token = await login(username, "long-enough-1");
    const me = await api<{ user: { sellerProfileId: string | null; isAI: boolean } }>("/api/auth/me", { token });
    expect(me.status).toBe(200);
    expect(me.body.user.sellerProfileId).toEqual(expect.any(String));
    expect(me.body.user.isAI).toBe(false);

    const again = await api("/api/accounts/create", {
      json: { email: `other-${username}@example.test`, username: username.toUpperCase(), password: "long-enough-1", role: "BUYER" },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("username_taken");
    expect(again.headers.get("content-type")).toContain("application/problem+json");

    const sameEmail = await api("/api/accounts/create", {
      json: { email: `${username}@EXAMPLE.test`, username: unique("x_"), password: "long-enough-1", role: "BUYER" },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.code).toBe("email_taken");
  });

  it("answers bad input with 400 validation_failed naming the field, and writes nothing", async () => {
    const username = unique("bad_");
    const cases: { body: string; path?: string }[] = [
      { body: "{not json" },
      { body: JSON.stringify({ email: "x@example.test", username, password: "short", role: "BUYER" }), path: "password" },
      { body: JSON.stringify({ email: "x@example.test", username, password: 12345678, role: "BUYER" }), path: "password" },
      { body: JSON.stringify({ email: "not-an-email", username, password: "long-enough-1", role: "BUYER" }), path: "email" },
      { body: JSON.stringify({ email: "x@example.test", username: `${username}_AI_X`, password: "long-enough-1", role: "BUYER" }), path: "username" },
      { body: JSON.stringify({ email: "x@example.test", username, password: "long-enough-1", role: "ADMIN" }), path: "role" },
      { body: JSON.stringify({ email: "x@example.test", username, password: "long-enough-1" }), path: "role" },
      { body: JSON.stringify([1, 2, 3]) },
      { body: "" },
    ];
    for (const c of cases) {
      const res = await api("/api/accounts/create", { body: c.body, headers: { "content-type": "application/json" }, method: "POST" });
      expect(res.status, c.body).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      if (c.path) expect((res.body.errors as { path: string }[]).map((e) => e.path)).toContain(c.path);
    }
    // Nothing was written: the username is still free.
    const ok = await api("/api/accounts/create", { json: { email: `${username}@example.test`, username, password: "long-enough-1", role: "BUYER" } });
    expect(ok.status).toBe(201);
  });

  it("refuses a body over 1 MiB with 413", async () => {
    const res = await api("/api/accounts/create", { json: { email: "a@example.test", username: "x".repeat(2 * 1024 * 1024), password: "p", role: "BUYER" } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });

  it("replays an Idempotency-Key answer and refuses the key with another body", async () => {
    const key = unique("key-");
    const username = unique("idem_");
    const body = { email: `${username}@example.test`, username, password: "long-enough-1", role: "BUYER" };
    const first = await api("/api/accounts/create", { json: body, headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    const second = await api("/api/accounts/create", { json: body, headers: { "idempotency-key": key } });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const other = await api("/api/accounts/create", { json: { ...body, username: unique("idem2_") }, headers: { "idempotency-key": key } });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("idempotency_conflict");
  });

  it("carries RateLimit headers on API answers", async () => {
    const user = await createUser();
    const token = await login(user.username, user.password);
    const res = await api("/api/auth/me", { token });
    expect(res.headers.get("ratelimit-policy")).toMatch(/^\d+;w=\d+$/);
    expect(res.headers.get("ratelimit")).toMatch(/limit=\d+, remaining=\d+, reset=\d+/);
    const health = await api("/api/health");
    expect(health.headers.get("ratelimit")).toBeNull();
  });
});
