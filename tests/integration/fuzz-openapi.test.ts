// Fuzzing from /api/openapi: for every operation of the published description, at least 200 (per `npm test`)
// generated bad inputs (wrong types, huge strings, unicode edge cases, negative and enormous
// numbers, deep JSON, prototype-pollution keys, SQL and HTML payloads, unknown ids, malformed
// credentials), sent by a caller the operation admits so they reach validation and the handler.
// Zero 5xx; every answer of the route wrapper is problem+json with a `code`; no table changes.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createSeller, login, useServer } from "../support/api";
import { invalidInputs, payloadInputs, type Doc, type FuzzInput } from "../support/fuzz";
import { changedTables, startOwnServer, tableChecksums, type OwnServer } from "../support/own-server";
import { apiKeyFor } from "../support/world";

const PER_OPERATION = 200;
/**
 * Each generated input is sent once per `npm test`: the inputs of every operation are dealt between the two
 * engines' runs (PGlite the even ones, PostgreSQL the odd ones), as are the attack strings. What decides the
 * answers is the same code on both; a run on one engine alone sends half (FUZZ_EVERY_INPUT=1 sends all).
 */
const share = process.env.FUZZ_EVERY_INPUT === "1" ? null : inject("dbKind") === "pglite" ? 0 : 1;
const dealt = <T>(items: T[]): T[] => (share === null ? items : items.filter((_, i) => i % 2 === share));
const perEngine = share === null ? PER_OPERATION : PER_OPERATION / 2;
const CONCURRENCY = 12;

let server: OwnServer;
let doc: Doc & { paths: Record<string, Record<string, { security?: unknown[] }>> };
let seller: { token: string; apiKey: string };
let admin: string;

beforeAll(async () => {
  server = await startOwnServer();
  useServer(server.url);
  doc = (await api<typeof doc>("/api/openapi")).body;
  const s = await createSeller();
  seller = { token: s.token, apiKey: (await apiKeyFor(s.token)).secret };
  admin = await login("test_admin", "test-admin-password");
  // The unlimited tier skips the rate counter's write per request: the fuzz measures the API, not the counter.
  const me = await api<{ user: { id: string } }>("/api/auth/me", { token: s.token });
  expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId: me.body.user.id, tier: "unlimited" } })).status).toBe(200);
}, 300_000);

afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

type Outcome = { op: string; input: FuzzInput; status: number; type: string; code?: string; text: string };

/** NextAuth's own endpoints answer in NextAuth's format (documented without problem details). */
const external = (template: string) => /^\/api\/auth\/(csrf|callback|session|signout|providers)/.test(template);

async function fire(method: string, template: string, input: FuzzInput): Promise<Outcome> {
  const headers: Record<string, string> = { ...input.headers };
  if (input.auth) {
    if (template === "/mcp") {
      headers["x-api-key"] = seller.apiKey;
      headers.accept = "application/json, text/event-stream";
    } else if (template.startsWith("/api/admin") || (template === "/api/exhibitions" && method === "post")) headers.authorization = `Bearer ${admin}`;
    else headers.authorization = `Bearer ${seller.token}`;
  }
  const res = await fetch(`${server.url}${input.path}`, { method: method.toUpperCase(), headers, body: input.body, redirect: "manual" });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { code?: string }).code;
  } catch {
    // not JSON
  }
  return { op: `${method.toUpperCase()} ${template}`, input, status: res.status, type: res.headers.get("content-type") ?? "", code, text };
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(await fn(item));
    }),
  );
  return out;
}

const describeOutcome = (o: Outcome) =>
  `${o.op} [${o.input.kind}] ${o.input.path} ${(o.input.body ?? "").slice(0, 120)} -> ${o.status} ${o.type} ${o.text.slice(0, 200)}`;

describe("fuzzing from /api/openapi", () => {
  it("answers every invalid input with a 4xx problem and writes nothing", async () => {
    const jobs: { method: string; template: string; input: FuzzInput }[] = [];
    let seed = 7;
    const ops = Object.entries(doc.paths).flatMap(([template, item]) => Object.keys(item).map((method) => ({ method, template })));
    for (const { method, template } of ops)
      for (const input of dealt(invalidInputs(doc, method, template, PER_OPERATION, seed++))) jobs.push({ method, template, input });
    // Left out: request counters, and when an API key last authenticated (the /mcp calls use one).
    const sums = () => server.withDb((q) => tableChecksums(q, ["rate_limits"], { api_keys: ["last_used_at"] }));
    const before = await sums();
    const started = Date.now();
    const outcomes = await pool(jobs, CONCURRENCY, (j) => fire(j.method, j.template, j.input));
    const seconds = (Date.now() - started) / 1000;
    const after = await sums();

    const perOp = new Map<string, number>();
    for (const o of outcomes) perOp.set(o.op, (perOp.get(o.op) ?? 0) + 1);
    const statuses: Record<string, number> = {};
    for (const o of outcomes) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    console.log(
      `fuzz: ${outcomes.length} requests over ${ops.length} operations in ${seconds.toFixed(1)} s (${Math.round(outcomes.length / seconds)}/s); statuses ${JSON.stringify(statuses)}`,
    );

    expect(ops.length).toBeGreaterThan(80);
    expect(perOp.size).toBe(ops.length);
    expect([...perOp.values()].every((n) => n >= perEngine)).toBe(true);
    expect(outcomes.filter((o) => o.status >= 500).map(describeOutcome)).toEqual([]);
    const wrapped = outcomes.filter((o) => !external(o.input.path.split("?")[0]!));
    expect(wrapped.filter((o) => o.status < 400).map(describeOutcome)).toEqual([]);
    expect(wrapped.filter((o) => !o.type.startsWith("application/problem+json") || !o.code).map(describeOutcome)).toEqual([]);
    expect(changedTables(before, after)).toEqual([]);
  }, 900_000);

  it("takes attack strings in free-text query parameters without a 5xx", async () => {
    const jobs = dealt(Object.keys(doc.paths).flatMap((template, i) => payloadInputs(doc, template, 1000 + i).map((input) => ({ template, input }))));
    const outcomes = await pool(jobs, CONCURRENCY, (j) => fire("get", j.template, j.input));
    console.log(`fuzz payloads: ${outcomes.length} requests`);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o.status >= 500).map(describeOutcome)).toEqual([]);
    expect(outcomes.filter((o) => o.status >= 400 && !o.type.startsWith("application/problem+json")).map(describeOutcome)).toEqual([]);
  }, 120_000);
});
