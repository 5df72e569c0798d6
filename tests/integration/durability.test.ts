// Durability (issue #7, point 4): kill -9 the server while it acknowledges writes (orders, chat
// messages, AI actions with their audit rows), restart it on the same data, and check that every
// acknowledged write is there in full, that nothing is half-written, and that the database opened
// cleanly every time. PGlite: 20 kills + 1 SIGTERM (plus a kill while the store is being created
// and a damaged store that must be refused); PostgreSQL: 5 kills + 1 SIGTERM. 1,000 acknowledged
// writes across the kills on each engine.
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { drizzleFor, type DbHandle } from "@/lib/db/client";
import { acquireDirectoryLock } from "@/lib/db/lock";
import { openPgliteStore } from "@/lib/db/pglite-store";
import { verifyAuditChain } from "@/lib/services/ai/audit";
import { startServer, type RunningServer } from "../support/server";

const pglite = inject("dbKind") === "pglite";
// Commits synced to disk, as in production (the other tests' servers skip it: tests/support/server.ts).
const ENV = { DATABASE_URL: pglite ? "" : process.env.DATABASE_URL, PGLITE_FSYNC: "1" };
const KILLS = pglite ? 20 : 5;
const ACKS = 1000;
const IN_FLIGHT = 8;
const PRICE = 10;
/**
 * An AI order over the default approval threshold (5,000) is held with an approval row; so is any
 * AI order once the agent's 24-hour total to this store passes it (contract 9.2), so what is stored
 * is checked against what was acknowledged (held with its approval, or placed).
 */
const HELD_QUANTITY = 600;
/** Generous: creating a PGlite store on a busy 2-core machine can take most of a minute. */
const START = { timeoutMs: 240_000 };
const KINDS = ["order", "message", "ai-order", "ai-message"] as const;

type Call = { status: number; body: Record<string, unknown> };
async function call(base: string, pathname: string, init: { token?: string; json?: unknown } = {}): Promise<Call> {
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${pathname}`, {
    method: init.json === undefined ? "GET" : "POST",
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function must(base: string, pathname: string, init: { token?: string; json?: unknown }, status: number): Promise<Record<string, unknown>> {
  const r = await call(base, pathname, init);
  if (r.status !== status) throw new Error(`${pathname}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

type Fixture = { productId: string; sellerUsername: string; buyer: { id: string; token: string }; ai: { id: string; token: string }; guardianToken: string };

async function fixture(base: string): Promise<Fixture> {
  const tag = `dur${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const account = async (name: string, role: string, extra: Record<string, unknown> = {}) => {
    const password = `pw-${tag}-${name}`;
    const json = { email: `${tag}_${name}@example.test`, username: `${tag}_${name}`, password, role, ...extra };
    const user = (await must(base, "/api/accounts/create", { json }, 201)).user as { id: string; username: string };
    const token = (await must(base, "/api/auth/login", { json: { email: user.username, password } }, 200)).token as string;
    return { ...user, token };
  };
  const [seller, buyer, guardian] = await Promise.all([
    account("s", "SELLER", { companyName: `Store ${tag}` }),
    account("b", "BUYER"),
    account("g", "SELLER", { companyName: `Guardian ${tag}` }),
  ]);
  const categories = (await must(base, "/api/categories", {}, 200)).categories as { id: string; parentId: string | null }[];
  const productJson = { title: `Durable ${tag}`, price: PRICE, currency: "USD", category: categories.find((c) => c.parentId)!.id, moq: 1 };
  const product = (await must(base, "/api/products", { token: seller.token, json: productJson }, 201)).product as { id: string };
  const aiPassword = `ai-${tag}-pass`;
  const ai = (await must(base, "/api/ai/accounts", { token: guardian.token, json: { role: "AI_BUYER", password: aiPassword } }, 201)).account as {
    aiUserId: string;
    username: string;
  };
  const aiToken = (await must(base, "/api/auth/login", { json: { email: ai.username, password: aiPassword } }, 200)).token as string;
  return {
    productId: product.id,
    sellerUsername: seller.username,
    buyer: { id: buyer.id, token: buyer.token },
    ai: { id: ai.aiUserId, token: aiToken },
    guardianToken: guardian.token,
  };
}

type Write = { kind: (typeof KINDS)[number]; tag: string; quantity?: number; acked?: { id: string; approvalId?: string } };

/** Issue writes (IN_FLIGHT at a time) until `target` are acknowledged, then send `signal`. */
async function writeThenSignal(server: RunningServer, f: Fixture, cycle: number, target: number, signal: NodeJS.Signals, writes: Write[]): Promise<number> {
  const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
  let acked = 0;
  let issued = 0;
  let signalled = false;
  const one = async (): Promise<void> => {
    const i = issued++;
    const kind = KINDS[i % 4]!;
    const w: Write = { kind, tag: `c${cycle}w${i}` };
    writes.push(w);
    const order = kind === "order" || kind === "ai-order";
    if (order) w.quantity = kind === "ai-order" && i % 8 === 2 ? HELD_QUANTITY : 1 + (i % 20);
    const json = order ? { productId: f.productId, quantity: w.quantity, note: w.tag } : { to: f.sellerUsername, content: w.tag };
    try {
      const r = await call(server.url, order ? "/api/orders" : "/api/chat/messages", { token: kind.startsWith("ai") ? f.ai.token : f.buyer.token, json });
      if (r.status !== 201)
        throw new Error(
          `${kind} answered ${r.status}: ${JSON.stringify(r.body)}\nserver exit ${server.child.exitCode ?? server.child.signalCode}\n${server.output().slice(-3000)}`,
        );
      const id = ((r.body.order ?? r.body.message) as { id: string }).id;
      w.acked = { id, approvalId: (r.body.pendingApproval as { id: string } | undefined)?.id };
      if (++acked === target) {
        signalled = true;
        server.child.kill(signal);
      }
    } catch (err) {
      // Cut off by the signal: not acknowledged (it may or may not be stored, but only whole).
      if (!signalled) throw err;
    }
  };
  const lane = async () => {
    while (!signalled) await one();
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const code = await exited;
  if (signal === "SIGTERM") expect(code, server.output().slice(-2000)).toBe(0);
  return acked;
}

/** Random cycle sizes adding up to `total`, each between half and one and a half of the mean. */
function split(total: number, parts: number): number[] {
  const mean = total / parts;
  const sizes = Array.from({ length: parts }, () => Math.round(mean / 2 + Math.random() * mean));
  sizes[parts - 1] = Math.max(1, sizes[parts - 1]! + total - sizes.reduce((a, b) => a + b, 0));
  return sizes;
}

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Everything acknowledged is stored in full; nothing stored is half-written. */
async function verify(query: Query, handle: DbHandle, f: Fixture, writes: Write[]) {
  const issued = new Set(writes.map((w) => w.tag));
  const people = [f.buyer.id, f.ai.id];
  const orders = await query(
    `select id, buyer_id, quantity, unit_price::text as unit_price, total::text as total, note, status, sent_by_ai from orders where buyer_id = any($1::text[])`,
    [people],
  );
  const approvals = await query(`select id, subject_id from approvals where ai_user_id = $1`, [f.ai.id]);
  const messages = await query(
    `select m.id, m.content, m.sender_id, m.sent_by_ai, (c.last_message_at >= m.created_at) as conversation_moved, (r.last_read_at >= m.created_at) as read_moved
       from messages m join conversations c on c.id = m.conversation_id
       left join conversation_reads r on r.conversation_id = m.conversation_id and r.user_id = m.sender_id
      where m.sender_id = any($1::text[])`,
    [people],
  );
  const audit = await query(`select details, success from audit_logs where ai_user_id = $1`, [f.ai.id]);

  const orderById = new Map(orders.map((o) => [o.id as string, o]));
  const messageById = new Map(messages.map((m) => [m.id as string, m]));
  const approvalBySubject = new Map(approvals.map((a) => [a.subject_id as string, a.id as string]));
  const lost: string[] = [];
  for (const w of writes) {
    if (!w.acked) continue;
    const ai = w.kind.startsWith("ai");
    if (w.kind === "order" || w.kind === "ai-order") {
      const o = orderById.get(w.acked.id);
      if (!o) {
        lost.push(`${w.kind} ${w.tag}`);
        continue;
      }
      const held = w.acked.approvalId !== undefined;
      if (ai && w.quantity === HELD_QUANTITY) expect(held, `${w.tag} over the threshold acknowledged as placed`).toBe(true);
      if (!ai) expect(held, `${w.tag}: a person's order held`).toBe(false);
      expect({ note: o.note, quantity: o.quantity, total: Number(o.total), status: o.status, ai: o.sent_by_ai, buyer: o.buyer_id }).toEqual({
        note: w.tag,
        quantity: w.quantity,
        total: PRICE * w.quantity!,
        status: held ? "pending_guardian_approval" : "placed",
        ai,
        buyer: ai ? f.ai.id : f.buyer.id,
      });
      if (held) expect(approvalBySubject.get(w.acked.id), w.tag).toBe(w.acked.approvalId);
    } else {
      const m = messageById.get(w.acked.id);
      if (!m) {
        lost.push(`${w.kind} ${w.tag}`);
        continue;
      }
      expect({ content: m.content, ai: m.sent_by_ai, sender: m.sender_id }).toEqual({ content: w.tag, ai, sender: ai ? f.ai.id : f.buyer.id });
    }
  }
  expect(lost, "acknowledged writes missing after the restarts").toEqual([]);

  // Whole records only, acknowledged or not: every order adds up and a held one has its approval;
  // every message moved its conversation and its sender's read position.
  for (const o of orders) {
    expect(issued.has(o.note as string), `order ${String(o.id)} with an unknown note`).toBe(true);
    expect(Number(o.total), String(o.note)).toBe(Number(o.unit_price) * Number(o.quantity));
    if (o.status === "pending_guardian_approval") expect(approvalBySubject.has(o.id as string), String(o.note)).toBe(true);
  }
  for (const a of approvals) expect(orderById.has(a.subject_id as string), `approval ${String(a.id)} without its order`).toBe(true);
  for (const m of messages) {
    expect(issued.has(m.content as string), `message ${String(m.id)} with unknown content`).toBe(true);
    expect({ tag: m.content, conversation: m.conversation_moved, read: m.read_moved }).toEqual({ tag: m.content, conversation: true, read: true });
  }
  // An AI action and its audit row commit together: as many successful audit rows as actions.
  const audited = (what: string) => audit.filter((a) => a.success === true && a.details === `POST ${what} -> 201`).length;
  expect(audited("/api/orders")).toBe(orders.filter((o) => o.sent_by_ai).length);
  expect(audited("/api/chat/messages")).toBe(messages.filter((m) => m.sent_by_ai).length);
  expect(await verifyAuditChain(drizzleFor(handle), f.ai.id)).toBe(true);
  return { orders: orders.length, messages: messages.length, audit: audit.length };
}

/** Read everything back straight from the database, in a client of its own. */
async function verifyInDatabase(storeDir: string, f: Fixture, writes: Write[]) {
  if (pglite) {
    const lock = acquireDirectoryLock(storeDir);
    const client = await openPgliteStore(storeDir, { fsync: true, log: () => {} });
    try {
      const query: Query = async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows;
      return await verify(query, { kind: "pglite", client, lock, dir: storeDir }, f, writes);
    } finally {
      await client.close();
      lock.release();
    }
  }
  const client = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
  try {
    const query: Query = async (text, params) => (await client.unsafe(text, params as never[])) as unknown as Record<string, unknown>[];
    return await verify(query, { kind: "postgres", client, url: process.env.DATABASE_URL! }, f, writes);
  } finally {
    await client.end();
  }
}

/** kill -9 while the new store is being created: the next start creates it again. */
async function killDuringCreation(dataDir: string, storeDir: string) {
  let child: ChildProcess | undefined;
  const first = startServer(ENV, { dataDir, ...START, onSpawn: (c) => (child = c) });
  first.catch(() => {});
  while (!existsSync(`${storeDir}.creating`)) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error("the server stopped before creating its store");
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, Math.random() * 300));
  child!.kill("SIGKILL");
  await expect(first).rejects.toThrow(/server exited/);
}

/** A store whose write-ahead log is gone: start-up refuses, names it, and leaves it as it was. */
async function refuseDamagedStore(storeDir: string) {
  const damaged = mkdtempSync(path.join(tmpdir(), "expo-trade-damaged-"));
  const copy = path.join(damaged, "pglite");
  cpSync(storeDir, copy, { recursive: true });
  const wal = path.join(copy, "pg_wal");
  const segments = readdirSync(wal).filter((n) => /^[0-9A-F]{24}$/.test(n));
  for (const name of segments) truncateSync(path.join(wal, name), 0);
  const escaped = copy.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  await expect(startServer(ENV, { dataDir: damaged, ...START })).rejects.toThrow(
    new RegExp(`embedded database in ${escaped} could not be opened \\(PostgreSQL: PANIC: [^)]*checkpoint`),
  );
  expect(existsSync(path.join(copy, "PG_VERSION"))).toBe(true);
  expect(segments.map((n) => statSync(path.join(wal, n)).size)).toEqual(segments.map(() => 0));
}

describe("durability", () => {
  it(`keeps every acknowledged write through ${KILLS} kill -9 restarts and a SIGTERM (${pglite ? "PGlite" : "PostgreSQL"})`, async () => {
    const started = Date.now();
    const dataDir = mkdtempSync(path.join(tmpdir(), "expo-trade-durable-"));
    const storeDir = path.join(dataDir, "pglite");
    if (pglite) await killDuringCreation(dataDir, storeDir);

    let server = await startServer(ENV, { dataDir, ...START });
    if (process.env.DURABILITY_PROGRESS) console.log(`first start ${Date.now() - started} ms`);
    if (pglite) expect(server.output()).toMatch(/was being created when the process stopped; creating it again/);
    const writes: Write[] = [];
    const restarts: number[] = [];
    let ackedByKills = 0;
    let f: Fixture;
    try {
      f = await fixture(server.url);
      for (const [cycle, target] of split(ACKS, KILLS).entries()) {
        const w0 = Date.now();
        ackedByKills += await writeThenSignal(server, f, cycle, target, "SIGKILL", writes);
        const t = Date.now();
        server = await startServer(ENV, { dataDir, ...START });
        restarts.push(Date.now() - t);
        if (process.env.DURABILITY_PROGRESS) console.log(`cycle ${cycle}: ${target} acks in ${t - w0} ms, restart ${Date.now() - t} ms`);
        if (pglite) expect(server.output()).toMatch(/not shut down cleanly; PostgreSQL replayed its write-ahead log/);
      }
      expect(ackedByKills).toBeGreaterThanOrEqual(ACKS);

      // SIGTERM while writes are in flight: they finish, the database closes cleanly.
      await writeThenSignal(server, f, KILLS, 40, "SIGTERM", writes);
      server = await startServer(ENV, { dataDir, ...START });
      if (pglite) expect(server.output()).not.toMatch(/not shut down cleanly/);
      const log = await call(server.url, `/api/ai/audit-logs?aiUserId=${f.ai.id}&limit=1`, { token: f.guardianToken });
      expect(log.body.chainValid).toBe(true);
      expect(await server.stop("SIGTERM")).toBe(0);
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    }

    const counts = await verifyInDatabase(storeDir, f, writes);
    if (pglite) await refuseDamagedStore(storeDir);

    const acked = writes.filter((w) => w.acked).length;
    const median = restarts.sort((a, b) => a - b)[restarts.length >> 1];
    console.log(
      `durability (${pglite ? "PGlite" : "PostgreSQL"}): ${KILLS} kill -9 + 1 SIGTERM, ${acked} acknowledged writes (${ackedByKills} before the kills), ` +
        `${writes.length - acked} cut off; stored ${counts.orders} orders, ${counts.messages} messages, ${counts.audit} audit rows; ` +
        `restart median ${median} ms; ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 1_800_000);
});
