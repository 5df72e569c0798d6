// Audit integrity (contract 3): no route changes or removes audit rows, the database refuses it
// too, and tampering by someone who goes around the database (superuser) shows in the chain.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allOperations } from "@/lib/api/operations/list";
import { api, createGuardianWithAi, login, useServer } from "../support/api";
import { startOwnServer, type OwnServer, type Query } from "../support/own-server";

type Page = { logs: { id: string; seq: number; hash: string }[]; total: number; chainValid: boolean; chainBrokenAt: number | null };

let server: OwnServer;
let g: Awaited<ReturnType<typeof createGuardianWithAi>>;
let aiToken: string;

beforeAll(async () => {
  server = await startOwnServer();
  useServer(server.url);
  g = await createGuardianWithAi();
  aiToken = await login(g.aiBuyer.username, g.aiPassword);
  // Reading its own session is not an action (contract 9.1): no row for /api/auth/me.
  for (const path of ["/api/products", "/api/categories", "/api/orders", "/api/seller/brochures", "/api/exhibitions", "/api/auth/me"])
    await api(path, { token: aiToken });
}, 300_000);

afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

const rowsOf = (q: Query, aiUserId: string) =>
  q<{ id: string; seq: number; row: string }>(`select id, seq::int as seq, md5(a::text) as row from audit_logs a where ai_user_id = $1 order by seq`, [
    aiUserId,
  ]);
const logs = (query = "") => api<Page>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&limit=100${query}`, { token: g.guardianToken });

describe("audit log integrity", () => {
  it("no route or method changes or removes a row (audit paths, and every operation given audit ids)", async () => {
    const before = await server.withDb((q) => rowsOf(q, g.aiBuyer.aiUserId));
    expect(before.length).toBeGreaterThanOrEqual(6);
    const target = before[1]!;
    const ids = { id: target.id, aiUserId: g.aiBuyer.aiUserId, seq: target.seq, details: "rewritten", success: true, hash: "0".repeat(64) };
    const statuses: Record<string, number> = {};
    const send = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await api(path, { method, token, json: body });
      statuses[`${method} ${path.replace(target.id, "{auditId}")}`] = res.status;
      return res;
    };
    // The audit paths with every method, as the guardian and as the AI account itself.
    for (const token of [g.guardianToken, aiToken])
      for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
        for (const path of [
          `/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}`,
          `/api/ai/audit-logs/${target.id}`,
          `/api/ai/audit-logs/${g.aiBuyer.aiUserId}/${target.seq}`,
        ]) {
          const res = await send(method, path, token, method === "DELETE" ? undefined : ids);
          expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        }
      }
    // Every operation that takes a record id or a body, given the audit row's id everywhere.
    const guardianToken = await login(g.guardian.username, g.guardian.password);
    for (const op of allOperations().filter((o) => o.method !== "GET" && (o.params || o.body) && o.bodyType !== "multipart" && o.bodyType !== "form")) {
      const path = op.path.replace(/\{[^}]+\}/g, target.id);
      await send(op.method, path, guardianToken, op.body ? ids : undefined);
      await send(op.method, path, aiToken, op.body ? ids : undefined);
    }
    const after = await server.withDb((q) => rowsOf(q, g.aiBuyer.aiUserId));
    // Earlier rows are untouched; the AI account's own calls were appended after them.
    expect(after.slice(0, before.length)).toEqual(before);
    const page = await logs();
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ chainValid: true, chainBrokenAt: null });
    console.log(`audit integrity: ${Object.keys(statuses).length} route/method probes, ${after.length - before.length} audit rows appended, none changed`);
  }, 120_000);

  it("the database refuses UPDATE, DELETE and TRUNCATE on audit rows", async () => {
    const errors = await server.withDb(async (q) => {
      const out: string[] = [];
      for (const stmt of [`update audit_logs set details = 'x' where ai_user_id = $1`, `delete from audit_logs where ai_user_id = $1`, `truncate audit_logs`]) {
        try {
          await q(stmt, stmt.includes("$1") ? [g.aiBuyer.aiUserId] : []);
          out.push(`${stmt}: accepted`);
        } catch (err) {
          out.push(String((err as Error).message));
        }
      }
      return out;
    });
    expect(errors).toEqual([
      expect.stringMatching(/append-only: UPDATE/),
      expect.stringMatching(/append-only: DELETE/),
      expect.stringMatching(/append-only: TRUNCATE/),
    ]);
    expect((await logs()).body.chainValid).toBe(true);
  });

  it("reports the first broken link when the table owner forges, edits or removes rows", async () => {
    // Going around the trigger takes the rights to alter the table (owner or superuser).
    const bypass = async (q: Query, stmt: string, params: unknown[]) => {
      await q(`alter table audit_logs disable trigger user`);
      try {
        await q(stmt, params);
      } finally {
        await q(`alter table audit_logs enable trigger user`);
      }
    };
    const buyerLogs = await logs();
    const last = buyerLogs.body.logs[0]!.seq;
    const ai = g.aiBuyer.aiUserId;
    // A forged row appended at the end does not link to the real chain.
    await server.withDb((q) =>
      bypass(
        q,
        `insert into audit_logs (id, ai_user_id, guardian_id, seq, action, details, ip, success, prev_hash, hash)
         select $2, ai_user_id, guardian_id, max(seq) + 1, 'product.browse', 'forged', '127.0.0.1', true, repeat('0', 64), repeat('f', 64)
         from audit_logs where ai_user_id = $1 group by ai_user_id, guardian_id`,
        [ai, `forged-${Date.now()}`],
      ),
    );
    expect((await logs()).body).toMatchObject({ chainValid: false, chainBrokenAt: last + 1 });
    // An edited row breaks at that row.
    await server.withDb((q) => bypass(q, `update audit_logs set details = 'nothing to see' where ai_user_id = $1 and seq = 3`, [ai]));
    expect((await logs()).body).toMatchObject({ chainValid: false, chainBrokenAt: 3 });
    expect((await api(`/api/ai/audit-logs?aiUserId=${ai}&format=csv`, { token: g.guardianToken })).status).toBe(200);

    // A removed row (the other AI account's chain): the row after the gap breaks.
    const seller = g.aiSeller.aiUserId;
    const sellerToken = await login(g.aiSeller.username, g.aiPassword);
    for (const path of ["/api/products", "/api/booths", "/api/auth/me"]) await api(path, { token: sellerToken });
    const sellerLogs = () => api<Page>(`/api/ai/audit-logs?aiUserId=${seller}`, { token: g.guardianToken });
    expect((await sellerLogs()).body).toMatchObject({ chainValid: true, chainBrokenAt: null });
    await server.withDb((q) => bypass(q, `delete from audit_logs where ai_user_id = $1 and seq = 2`, [seller]));
    expect((await sellerLogs()).body).toMatchObject({ chainValid: false, chainBrokenAt: 3 });
  }, 120_000);
});
