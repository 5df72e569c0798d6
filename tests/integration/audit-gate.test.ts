// What the audit log records through the gate (contract 9.1): reading one's own session is not an
// action; refusals by the rate tier are one row per window with a running count; pages of the log
// are found by seq and the chain is verified from the last verified row on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createGuardianWithAi, login, useServer } from "../support/api";
import { sleep } from "../support/ws";
import { startOwnServer, type OwnServer } from "../support/own-server";

type Entry = { seq: number; action: string; success: boolean; details: string; refusedCount?: number };
type Page = { logs: Entry[]; total: number; chainValid: boolean; chainVerifiedThrough: number };

const LIMIT = 30;
let server: OwnServer;
let g: Awaited<ReturnType<typeof createGuardianWithAi>>;

beforeAll(async () => {
  server = await startOwnServer({ RATE_LIMIT_USER_PER_HOUR: String(LIMIT) });
  useServer(server.url);
  g = await createGuardianWithAi();
}, 300_000);

afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

const logs = (query = "") => api<Page>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&limit=50${query}`, { token: g.guardianToken });

describe("the audit log through the gate", () => {
  it("does not record /api/auth/me, records one rate_limited row per window with the running count, and pages by seq", async () => {
    const ai = await login(g.aiBuyer.username, g.aiPassword);
    for (let i = 0; i < 5; i++) expect((await api("/api/auth/me", { token: ai })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 12; i++) statuses.push((await api(i % 2 ? "/api/categories" : "/api/auth/me", { token: ai })).status);
    // The session reads above were counted by the tier (5 of the 30), so refusals start earlier.
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    await sleep(1500);
    const page = await logs();
    expect(page.status).toBe(200);
    expect(page.body.logs.filter((l) => l.details.includes("/api/auth/me"))).toEqual([]);
    const limited = page.body.logs.filter((l) => l.action === "rate_limited");
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({ success: false, refusedCount: 17 });
    expect(page.body.logs.filter((l) => l.action !== "rate_limited" && !l.success)).toEqual([]);
    expect(page.body.chainValid).toBe(true);
    expect(page.body.chainVerifiedThrough).toBe(page.body.total);

    // Paged by seq: page 2 of 5 continues exactly where page 1 ended.
    const p1 = await api<Page>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&limit=5&page=1`, { token: g.guardianToken });
    const p2 = await api<Page>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&limit=5&page=2`, { token: g.guardianToken });
    expect(p1.body.total).toBe(page.body.total);
    expect([...p1.body.logs, ...p2.body.logs].map((l) => l.seq)).toEqual(page.body.logs.slice(0, 10).map((l) => l.seq));
    expect(p2.body.logs.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4].map((i) => page.body.total - 5 - i));
  });

  it("stops a filtered count at 10,000 (totalRelation gte) while the unfiltered total stays exact", async () => {
    const ai = g.aiSeller.aiUserId;
    await server.withDb((q) =>
      q(
        `insert into audit_logs (id, ai_user_id, guardian_id, seq, action, details, ip, success, prev_hash, hash)
         select 'bulk-' || n, $1, $2, n, 'product.browse', 'bulk', '127.0.0.1', true, repeat('0', 64), repeat('0', 64)
         from generate_series(1, 10050) n`,
        [ai, g.guardian.id],
      ),
    );
    const page = (query: string) => api<Page & { totalRelation: string }>(`/api/ai/audit-logs?aiUserId=${ai}&limit=5${query}`, { token: g.guardianToken });
    const filtered = await page("&action=product.browse");
    expect(filtered.status).toBe(200);
    expect(filtered.body).toMatchObject({ total: 10_000, totalRelation: "gte" });
    const all = await page("");
    expect(all.body).toMatchObject({ total: 10_050, totalRelation: "eq" });
    expect(all.body.logs.map((l) => l.seq)).toEqual([10_050, 10_049, 10_048, 10_047, 10_046]);
  });
});
