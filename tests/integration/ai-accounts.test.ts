import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { PERMISSION_NAMES, defaultPermissions } from "@/lib/ai/permissions";
import { api, baseUrl, createGuardianWithAi, createUser, login } from "../support/api";

type Account = {
  aiUserId: string;
  username: string;
  role: string;
  disabled: boolean;
  permissions: Record<string, boolean>;
  orderApprovalThreshold: number;
  maxDiscountPercent: number;
  monthlyBudget: number | null;
};

describe("AI account lifecycle", () => {
  it("creates one account per role with defaults, sharing the guardian's e-mail", async () => {
    const { guardian, guardianToken, aiBuyer, aiSeller } = await createGuardianWithAi();
    const list = await api<{ accounts: Account[] }>("/api/ai/accounts", { token: guardianToken });
    expect(list.status).toBe(200);
    expect(list.body.accounts.map((a) => a.username).sort()).toEqual([`${guardian.username}_AI_BUYER`, `${guardian.username}_AI_SELLER`]);
    const buyer = list.body.accounts.find((a) => a.aiUserId === aiBuyer.aiUserId)!;
    expect(buyer).toMatchObject({ role: "AI_BUYER", disabled: false, orderApprovalThreshold: 5000, maxDiscountPercent: 10, monthlyBudget: null });
    expect(buyer.permissions).toEqual(defaultPermissions("AI_BUYER"));
    expect(list.body.accounts.find((a) => a.aiUserId === aiSeller.aiUserId)!.permissions).toEqual(defaultPermissions("AI_SELLER"));

    const again = await api("/api/ai/accounts", { token: guardianToken, json: { role: "AI_BUYER", password: "another-password" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("ai_account_exists");
  });

  it("needs a store for an AI_SELLER", async () => {
    const buyer = await createUser("BUYER");
    const token = await login(buyer.username, buyer.password);
    const res = await api("/api/ai/accounts", { token, json: { role: "AI_SELLER", password: "long-enough-1" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("seller_profile_required");
    const ok = await api("/api/ai/accounts", { token, json: { role: "AI_BUYER", password: "long-enough-1" } });
    expect(ok.status).toBe(201);
  });

  it("sets permissions, thresholds and budget; refuses unknown permissions and seller budgets", async () => {
    const { guardianToken, aiBuyer, aiSeller } = await createGuardianWithAi();
    const put = await api<{ permissions: Record<string, boolean> }>("/api/ai/permissions", {
      method: "PUT",
      token: guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, permission: "product.delete", isAllowed: true },
    });
    expect(put.status).toBe(200);
    expect(put.body.permissions["product.delete"]).toBe(true);
    expect(Object.keys(put.body.permissions).sort()).toEqual([...PERMISSION_NAMES].sort());

    const unknown = await api("/api/ai/permissions", {
      method: "PUT",
      token: guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, permission: "product.steal", isAllowed: true },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("validation_failed");

    const patch = await api<{ account: Account }>("/api/ai/accounts", {
      method: "PATCH",
      token: guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, orderApprovalThreshold: 1200.5, maxDiscountPercent: 5, monthlyBudget: 9000 },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.account).toMatchObject({ orderApprovalThreshold: 1200.5, maxDiscountPercent: 5, monthlyBudget: 9000 });
    const clear = await api<{ account: Account }>("/api/ai/accounts", {
      method: "PATCH",
      token: guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, monthlyBudget: null },
    });
    expect(clear.body.account.monthlyBudget).toBeNull();

    const sellerBudget = await api("/api/ai/accounts", { method: "PATCH", token: guardianToken, json: { aiUserId: aiSeller.aiUserId, monthlyBudget: 100 } });
    expect(sellerBudget.status).toBe(400);
    const negative = await api("/api/ai/accounts", { method: "PATCH", token: guardianToken, json: { aiUserId: aiBuyer.aiUserId, maxDiscountPercent: 150 } });
    expect(negative.status).toBe(400);
  });

  it("disables at once (token, cookie, sign-in) and re-enables", async () => {
    const { guardianToken, aiBuyer, aiPassword } = await createGuardianWithAi();
    const token = await login(aiBuyer.username, aiPassword);
    expect((await api("/api/auth/me", { token })).status).toBe(200);
    const del = await api<{ account: Account }>(`/api/ai/accounts?aiUserId=${aiBuyer.aiUserId}`, { method: "DELETE", token: guardianToken });
    expect(del.status).toBe(200);
    expect(del.body.account.disabled).toBe(true);
    expect((await api("/api/auth/me", { token })).status).toBe(401);
    // The right password for a disabled account: told so (403), not "wrong password" (#17).
    expect((await api("/api/auth/login", { json: { email: aiBuyer.username, password: aiPassword } })).status).toBe(403);

    const enable = await api<{ account: Account }>("/api/ai/accounts", {
      method: "PATCH",
      token: guardianToken,
      json: { aiUserId: aiBuyer.aiUserId, disabled: false },
    });
    expect(enable.body.account.disabled).toBe(false);
    const fresh = await login(aiBuyer.username, aiPassword);
    expect((await api("/api/auth/me", { token: fresh })).status).toBe(200);
    // The old token stays dead: its session was revoked, not suspended.
    expect((await api("/api/auth/me", { token })).status).toBe(401);
  });
});

describe("who may touch a guardian's AI accounts", () => {
  it("refuses other guardians (404), the AI account itself (404; it only lists its own approvals) and anonymous callers (401)", async () => {
    const { aiBuyer, aiPassword } = await createGuardianWithAi();
    const other = await createGuardianWithAi();
    const aiToken = await login(aiBuyer.username, aiPassword);
    const calls = [
      { method: "GET", path: `/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}` },
      { method: "PUT", path: "/api/ai/permissions", json: { aiUserId: aiBuyer.aiUserId, permission: "product.delete", isAllowed: true } },
      { method: "PATCH", path: "/api/ai/accounts", json: { aiUserId: aiBuyer.aiUserId, disabled: true } },
      { method: "DELETE", path: `/api/ai/accounts?aiUserId=${aiBuyer.aiUserId}` },
      { method: "GET", path: "/api/ai/approvals" },
      { method: "POST", path: "/api/ai/approvals/00000000-0000-7000-8000-000000000000/approve" },
    ];
    for (const c of calls) {
      const asOther = await api(c.path, { method: c.method, json: c.json, token: other.guardianToken });
      if (c.path === "/api/ai/approvals") expect(asOther.status).toBe(200);
      else expect(asOther.status, `other guardian ${c.method} ${c.path}`).toBe(404);
      const asAi = await api<{ total?: number }>(c.path, { method: c.method, json: c.json, token: aiToken });
      // The agent lists its own approvals (none here); every guardian action stays 404 to it.
      if (c.path === "/api/ai/approvals") expect([asAi.status, asAi.body.total]).toEqual([200, 0]);
      else expect(asAi.status, `AI ${c.method} ${c.path}`).toBe(404);
      const anon = await api(c.path, { method: c.method, json: c.json });
      expect(anon.status, `anonymous ${c.method} ${c.path}`).toBe(401);
    }
    // Nothing changed: the account is still enabled, the permission still default.
    const me = await api<{ user: { id: string } }>("/api/auth/me", { token: aiToken });
    expect(me.status).toBe(200);
  });
});

describe("audit log", () => {
  it("records every AI request with action, ip and success; filters, pages, CSV, chain", async () => {
    const { guardianToken, aiBuyer, aiPassword } = await createGuardianWithAi();
    const token = await login(aiBuyer.username, aiPassword);
    for (let i = 0; i < 3; i++) await api("/api/products?limit=1", { token });
    // Reading its own session is not an action (contract 9.1): not in the log.
    await api("/api/auth/me", { token });
    await api("/api/ai/accounts", { token, json: { role: "AI_BUYER", password: "x-long-enough" } }); // refused: 404

    type Page = {
      logs: { action: string; success: boolean; ip: string; timestamp: string; details: string }[];
      total: number;
      page: number;
      limit: number;
      chainValid: boolean;
      chainBrokenAt: number | null;
      actions: string[];
    };
    const all = await api<Page>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}`, { token: guardianToken });
    expect(all.status).toBe(200);
    expect(all.body.chainValid).toBe(true);
    expect(all.body.total).toBe(5); // the sign-in, 3 x product.browse, the refused create
    expect(all.body.logs[0]).toMatchObject({ action: "ai.account.create", success: false });
    expect(all.body.logs[0]!.ip).not.toBe("");
    expect(all.body.actions).toEqual(["ai.account.create", "auth.login", "product.browse"]);

    const me = await api<Page>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&action=product.browse&limit=2&page=2`, { token: guardianToken });
    expect(me.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(me.body.logs).toHaveLength(1);
    const failed = await api<Page>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&success=false`, { token: guardianToken });
    expect(failed.body.logs.every((l) => !l.success)).toBe(true);
    const future = await api<Page>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&from=2999-01-01T00:00:00Z`, { token: guardianToken });
    expect(future.body.total).toBe(0);
    const badDate = await api(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&from=yesterday-ish`, { token: guardianToken });
    expect(badDate.status).toBe(400);

    const csv = await api(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&format=csv`, { token: guardianToken });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toContain("attachment");
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toBe("seq,timestamp,action,success,ip,details,hash");
    expect(lines).toHaveLength(1 + all.body.total);

    // On PostgreSQL the test can reach the server's database: tamper with one stored row.
    if (inject("dbKind") === "postgres") {
      const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      try {
        // Around the append-only trigger, as only a database superuser can.
        await sql.begin(async (tx) => {
          await tx`set local session_replication_role = replica`;
          await tx`update audit_logs set details = 'nothing to see' where ai_user_id = ${aiBuyer.aiUserId} and seq = 2`;
        });
      } finally {
        await sql.end();
      }
      const after = await api<Page>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}`, { token: guardianToken });
      expect(after.body.chainValid).toBe(false);
      expect(after.body.chainBrokenAt).toBe(2);
    }
  });
});

describe("one browser, one AI account of a guardian", () => {
  it("revokes the sibling's session on the same device, and audits it", async () => {
    const { guardianToken, aiBuyer, aiSeller, aiPassword } = await createGuardianWithAi();
    // Real browsers: each gets its signed device cookie from the first page it loads.
    const browserDevice = async () => {
      const res = await fetch(`${baseUrl()}/`, { redirect: "manual" });
      return res.headers
        .getSetCookie()
        .find((c) => c.startsWith("et_device="))!
        .split(";")[0]!;
    };
    const device = await browserDevice();
    const signIn = async (username: string, cookie: string) => {
      const res = await api("/api/auth/delegate-login", { json: { email: username, password: aiPassword, restrictTo: "NON_ADMIN" }, cookie });
      expect(res.status).toBe(200);
      return res.headers
        .getSetCookie()
        .find((c) => c.startsWith("next-auth.session-token="))!
        .split(";")[0]!;
    };
    const buyerCookie = await signIn(aiBuyer.username, device);
    const otherBrowser = await signIn(aiBuyer.username, await browserDevice());
    const sellerCookie = await signIn(aiSeller.username, device);

    const me = (cookie: string) => api<{ user: { id: string } | null }>("/api/auth/me", { cookie: `${cookie}; ${device}` });
    expect((await me(buyerCookie)).body.user).toBeNull();
    expect((await me(sellerCookie)).body.user?.id).toBe(aiSeller.aiUserId);
    expect((await me(otherBrowser)).body.user?.id).toBe(aiBuyer.aiUserId);

    const logs = await api<{ logs: { action: string }[] }>(`/api/ai/audit-logs?aiUserId=${aiBuyer.aiUserId}&action=auth.session_replaced`, {
      token: guardianToken,
    });
    expect(logs.body.logs).toHaveLength(1);
  });
});

describe("PUT /api/booths", () => {
  it("answers 404 to AI accounts and 409 to humans without a store", async () => {
    const { aiSeller, aiPassword, guardianToken } = await createGuardianWithAi();
    const aiToken = await login(aiSeller.username, aiPassword);
    const ai = await api("/api/booths", { method: "PUT", token: aiToken, json: { boothId: "any", isPublished: true } });
    expect(ai.status).toBe(404);
    const missing = await api("/api/booths", { method: "PUT", token: guardianToken, json: { boothId: "no-such-booth", isPublished: true } });
    expect(missing.status).toBe(404);
    const buyer = await createUser("BUYER");
    const buyerToken = await login(buyer.username, buyer.password);
    const noStore = await api("/api/booths", { method: "PUT", token: buyerToken, json: { boothId: "x", isPublished: true } });
    expect(noStore.status).toBe(409);
    expect(noStore.body.code).toBe("seller_profile_required");
  });
});
