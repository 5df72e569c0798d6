// API keys (contract 7): created and revoked by their owner, shown once, and acting as the account
// on every API route.
import { describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createUser, login } from "../support/api";
import { createApiKey } from "../support/mcp";

type Key = { id: string; name: string; prefix: string; rateTier: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };
type Me = { user: { id: string; username: string } };

async function signedIn() {
  const user = await createUser("BUYER");
  return { user, token: await login(user.username, user.password) };
}

describe("API keys", () => {
  it("shows the secret once and lists keys without it", async () => {
    const { token } = await signedIn();
    const created = await api<{ key: Key; secret: string }>("/api/keys", { token, json: { name: "  sourcing agent " } });
    expect(created.status).toBe(201);
    const { key, secret } = created.body;
    expect(secret).toMatch(/^etk_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({ name: "sourcing agent", rateTier: "standard", lastUsedAt: null, revokedAt: null });
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(16);

    const list = await api<{ keys: Key[]; total: number; page: number; limit: number }>("/api/keys", { token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(list.body.keys[0]!.id).toBe(key.id);
    expect(list.text).not.toContain(secret.slice(key.prefix.length));
  });

  it("authenticates as its account with Authorization: Bearer or X-API-Key, and records lastUsedAt", async () => {
    const { user, token } = await signedIn();
    const { id, secret } = await createApiKey(token);
    const viaBearer = await api<Me>("/api/auth/me", { token: secret });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.user.id).toBe(user.id);
    const viaHeader = await api<Me>("/api/auth/me", { headers: { "x-api-key": secret } });
    expect(viaHeader.body.user.id).toBe(user.id);
    const list = await api<{ keys: Key[] }>("/api/keys", { token });
    expect(list.body.keys.find((k) => k.id === id)?.lastUsedAt).toBeTruthy();
  });

  it("refuses unknown keys, and never falls back to the cookie when a wrong key is sent", async () => {
    const cases: Record<string, string>[] = [{ authorization: "Bearer etk_unknown" }, { "x-api-key": "etk_unknown" }, { "x-api-key": "not-a-key" }];
    for (const headers of cases) {
      const res = await api<{ code: string }>("/api/auth/me", { headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
    }
  });

  it("revokes: the key is 401 from its next request on, and another user's key is 404", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const { id, secret } = await createApiKey(owner.token);
    expect((await api(`/api/keys/${id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await api("/api/auth/me", { token: secret })).status).toBe(200);

    const revoked = await api<{ key: Key }>(`/api/keys/${id}`, { method: "DELETE", token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.revokedAt).toBeTruthy();
    const after = await api<{ code: string }>("/api/auth/me", { token: secret });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("unauthenticated");
    expect((await api(`/api/keys/${id}`, { method: "DELETE", token: owner.token })).status).toBe(200);
    expect((await api("/api/keys/no-such-key", { method: "DELETE", token: owner.token })).status).toBe(404);
    const list = await api<{ keys: Key[] }>("/api/keys", { token: owner.token });
    expect(list.body.keys.find((k) => k.id === id)?.revokedAt).toBeTruthy();
  });

  it("needs a signed-in session to create keys (a key cannot mint keys) and validates the name", async () => {
    const { token } = await signedIn();
    expect((await api("/api/keys", { json: { name: "x" } })).status).toBe(401);
    const { secret } = await createApiKey(token);
    const minted = await api<{ code: string }>("/api/keys", { token: secret, json: { name: "child" } });
    expect(minted.status).toBe(403);
    expect(minted.body.code).toBe("forbidden");
    expect((await api("/api/keys", { token: secret })).status).toBe(200);
    const bad = await api<{ code: string; errors: { path: string }[] }>("/api/keys", { token, json: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]!.path).toBe("name");
  });

  it("acts for an AI account under its permissions and audit; disabling the account kills its keys", async () => {
    const { guardianToken, aiBuyer, aiPassword } = await createGuardianWithAi();
    const aiToken = await login(aiBuyer.username, aiPassword);
    const { secret } = await createApiKey(aiToken, "agent key");
    expect((await api<Me>("/api/auth/me", { token: secret })).body.user.id).toBe(aiBuyer.aiUserId);
    expect((await api("/api/orders?as=buyer", { token: secret })).status).toBe(200);
    const denied = await api<{ code: string }>("/api/products", { token: secret, json: { title: "x", price: 1, currency: "USD", category: "x", moq: 1 } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("permission_denied");

    type Logs = { logs: { action: string; success: boolean }[] };
    const logs = await api<Logs>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&limit=100`, { token: guardianToken });
    const actions = logs.body.logs.map((l) => `${l.action}:${l.success}`);
    expect(actions).toEqual(expect.arrayContaining(["apikey.create:true", "order.view:true", "product.create:false"]));

    expect((await api(`/api/ai/accounts?aiUserId=${aiBuyer.aiUserId}`, { method: "DELETE", token: guardianToken })).status).toBe(200);
    expect((await api("/api/auth/me", { token: secret })).status).toBe(401);
    // Re-enabling brings back neither sessions nor keys.
    expect((await api("/api/ai/accounts", { method: "PATCH", token: guardianToken, json: { aiUserId: aiBuyer.aiUserId, disabled: false } })).status).toBe(200);
    expect((await api("/api/auth/me", { token: secret })).status).toBe(401);
  });
});
