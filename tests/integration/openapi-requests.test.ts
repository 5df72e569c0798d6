// The request side of the published description (the response side is tests/support/response-check.ts):
// for every operation with a JSON body, what the document's request schema requires is what the server
// requires. The documented example is accepted (whatever else it meets, never a 400); leaving out a
// field the document requires is a 400 naming it; leaving out one it calls optional is never a 400
// naming it (unless the schema's `anyOf`/`oneOf` says one of a group is needed and none is left).
import { beforeAll, describe, expect, it } from "vitest";
import { allOperations } from "@/lib/api/operations/list";
import { adminToken, api, createSeller, createUser, login, someCategory } from "../support/api";
import { apiKeyFor, uploadDocument } from "../support/world";

type Schema = {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, unknown>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  example?: unknown;
};
type Media = { schema: Schema; example?: unknown };
type Doc = {
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, Media> } }>>;
  components: { schemas: Record<string, Schema> };
};
type Problem = { code?: string; errors?: { path: string; message: string }[] };

/** Bodies sent as forms or multipart, and NextAuth's own endpoints, are not JSON; each is named here so a new one is a decision. */
const NOT_JSON = ["credentialsCallback", "nextAuthSignout", "upload"];
const NO_SUCH_ID = "0193c4d2-0000-7000-8000-00000000dead";

let doc: Doc;
let seller: string;
let admin: string;
let mcpKey: string;
/** Reference data an example cannot know (ids made at seed time, files this caller uploaded): put in for the example's placeholder. */
let known: Record<string, unknown> = {};

beforeAll(async () => {
  doc = (await api<Doc>("/api/openapi")).body;
  const s = await createSeller();
  seller = s.token;
  admin = await adminToken();
  // Some hundred calls from one account: the unlimited tier keeps them clear of 429.
  expect((await api("/api/admin/rate-tiers", { method: "PUT", token: admin, json: { userId: s.user.id, tier: "unlimited" } })).status).toBe(200);
  mcpKey = (await apiKeyFor(seller)).secret;
  known = { categoryId: (await someCategory()).leaf.id, fileUrl: await uploadDocument(seller) };
});

const resolve = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!]! : s);

type Case = { id: string; method: string; path: string; schema: Schema; example: Record<string, unknown> };

function jsonCases(): Case[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) => {
      const media = op.requestBody?.content["application/json"];
      if (!media) return [];
      const schema = resolve(media.schema);
      const example = (media.example ?? schema.example) as Record<string, unknown>;
      return [{ id: op.operationId, method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, NO_SUCH_ID), schema, example }];
    }),
  );
}

/** The caller an operation admits, so the body reaches validation (access and permission come first). */
async function send(c: Case, body: Record<string, unknown>, token?: string) {
  try {
    return await sendUnchecked(c, body, token);
  } catch (err) {
    // An answer the published description does not allow (tests/support/response-check.ts).
    return { status: 0, body: {} as Problem, text: `${(err as Error).message} (sent ${JSON.stringify(body).slice(0, 200)})`, headers: new Headers() };
  }
}

async function sendUnchecked(c: Case, body: Record<string, unknown>, token?: string) {
  const access = allOperations().find((o) => o.operationId === c.id)?.access;
  if (c.path === "/mcp")
    return api<Problem>(c.path, { method: c.method, json: body, headers: { "x-api-key": mcpKey, accept: "application/json, text/event-stream" } });
  return api<Problem>(c.path, { method: c.method, json: body, token: token ?? (access === "admin" ? admin : access === "public" ? undefined : seller) });
}

const without = (o: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const names = (p: Problem, field: string) => (p.errors ?? []).some((e) => e.path === field || e.path.startsWith(`${field}.`));
/** The `required`/`not` subset of JSON Schema the document's "one of these" and "this with that" rules use. */
function holds(s: Schema, body: Record<string, unknown>): boolean {
  if (!(s.required ?? []).every((k) => k in body)) return false;
  if (s.not && holds(s.not, body)) return false;
  if (s.anyOf && !s.anyOf.some((alt) => holds(alt, body))) return false;
  if (s.oneOf && s.oneOf.filter((alt) => holds(alt, body)).length !== 1) return false;
  return true;
}
/** Whether leaving `field` out broke a rule the schema itself declares (anyOf / oneOf): then a 400 naming it is documented. */
const ruleBroken = (s: Schema, body: Record<string, unknown>) => !holds({ anyOf: s.anyOf, oneOf: s.oneOf }, body);

describe("request bodies: the document and the server require the same fields", () => {
  it("covers every operation with a body", () => {
    const withBody = allOperations().filter((o) => o.body);
    const json = jsonCases().map((c) => c.id);
    expect(withBody.map((o) => o.operationId).filter((id) => !json.includes(id))).toEqual(NOT_JSON);
    expect(json.length).toBeGreaterThan(25);
  });

  it("accepts each documented example, refuses each required field left out by name, and never refuses an optional one", async () => {
    const mismatches: string[] = [];
    // Changing a password needs the caller's real current one: a user of its own (whose sessions end).
    const pw = await createUser("BUYER");
    const pwToken = await login(pw.username, pw.password);
    for (const c of jsonCases()) {
      const real = Object.fromEntries(Object.entries(known).filter(([k]) => k in c.example));
      const example = { ...c.example, ...real, ...(c.id === "changePassword" ? { currentPassword: pw.password } : {}) };
      const token = c.id === "changePassword" ? pwToken : undefined;
      const required = c.schema.required ?? [];
      for (const field of required) {
        const res = await send(c, without(example, field), token);
        if (res.status !== 400 || !names(res.body, field))
          mismatches.push(`${c.id}: without required "${field}" answered ${res.status} ${res.text.slice(0, 200)}`);
      }
      for (const field of Object.keys(example).filter((k) => !required.includes(k))) {
        const body = without(example, field);
        const res = await send(c, body, token);
        if (res.status === 0) mismatches.push(`${c.id}: ${res.text}`);
        else if (res.status === 400 && names(res.body, field) && !ruleBroken(c.schema, body))
          mismatches.push(`${c.id}: the server requires "${field}", the document calls it optional: ${res.text.slice(0, 200)}`);
      }
      const empty = await send(c, {}, token);
      if (empty.status === 0) mismatches.push(`${c.id}: ${empty.text}`);
      for (const e of empty.status === 400 ? (empty.body.errors ?? []) : []) {
        const field = e.path.split(".")[0]!;
        if (field && !(field in (c.schema.properties ?? {}))) mismatches.push(`${c.id}: the server names "${e.path}", a field the document does not have`);
      }
      const res = await send(c, example, token);
      // A 400 with a domain code (a placeholder reset link is `token_invalid`, as a placeholder id is a
      // 404) is the example's values, not its shape; `validation_failed` is the shape refused.
      if ((res.status === 400 && res.body.code === "validation_failed") || res.status >= 500 || res.status === 0)
        mismatches.push(`${c.id}: the documented example answered ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(mismatches).toEqual([]);
  }, 120_000);
});
