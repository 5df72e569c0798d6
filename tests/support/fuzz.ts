// Bad inputs generated from the published OpenAPI description (fast-check, fixed seeds). Every
// input of `invalidInputs` is invalid by construction: a wrong JSON type, a value past a declared
// bound, a value outside an enum, a missing required field, malformed or oversized JSON, an
// unknown record id, or a malformed credential. `payloadInputs` are attack strings in query
// parameters the description leaves unconstrained: they may be valid, so they are kept apart.
import fc from "fast-check";

export type Schema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Param = { name: string; in: "path" | "query" | "header" | "cookie"; required?: boolean; schema: Schema };
export type DocOperation = { operationId: string; parameters?: Param[]; requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> } };
export type Doc = { paths: Record<string, Record<string, DocOperation>>; components?: { schemas?: Record<string, Schema> } };

/** One generated request: path (with query), headers, body text. */
export type FuzzInput = { kind: string; path: string; headers: Record<string, string>; body?: string; auth: boolean };

export const SQL = [
  "' OR '1'='1",
  "1; DROP TABLE users; --",
  "' UNION SELECT password_hash FROM users --",
  "1' AND pg_sleep(5)--",
  "$$; select 1; $$",
  "\\'; COPY users TO '/tmp/x'; --",
  "%' OR 1=1 --",
];
export const HTML = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "javascript:alert(1)", "<svg/onload=alert(1)>", "{{7*7}}", "${7*7}"];
export const UNICODE = [
  "\u0000",
  "\uD800",
  "\uDFFF\uD800",
  "\u202Eevil\u202C",
  "\u200B\u200C\u200D\uFEFF",
  "e\u0301\u0301\u0301\u0301",
  "ﷺ𒐫𒐫𒐫",
  "🏳️‍🌈👨‍👩‍👧‍👦",
  "\u0085\u2028\u2029",
  "Ａｄｍｉｎ",
  "ǅ",
  "\r\n\t",
];
const PAYLOADS = [...SQL, ...HTML, ...UNICODE];
const PROTO = ['"__proto__":{"isAdmin":true,"role":"ADMIN"}', '"constructor":{"prototype":{"polluted":true}}', '"prototype":{"x":1}'];

/**
 * Percent-encoding that also carries lone surrogates, as the bytes WTF-8 gives them (%ED%A0%80):
 * invalid UTF-8 in a URL, exactly what a server must survive decoding.
 */
export function enc(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff)
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A non-empty string that is not a number to JavaScript (so no coercion can make it one). */
const notNumeric = (s: string) => (s.trim() === "" || !Number.isNaN(Number(s)) ? `x${s}` : s);

const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

const junkString = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
  fc.tuple(fc.constantFrom(...PAYLOADS), fc.integer({ min: 2, max: 50 })).map(([s, n]) => s.repeat(n)),
);
const hugeNumber = fc.constantFrom(1e308, -1e308, 9007199254740993, -9007199254740993, 1e21, -1, -0.5, 0.000001);
/** JSON that is not `type`: a value of every other JSON type. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> | undefined {
  const t = schema.type;
  if (!t) return undefined;
  const options: fc.Arbitrary<unknown>[] = [];
  if (t !== "string") options.push(junkString);
  if (t !== "number" && t !== "integer") options.push(hugeNumber, fc.integer());
  if (t !== "boolean") options.push(fc.constant(true), fc.constant(false));
  if (t !== "array") options.push(fc.constant([]), fc.array(junkString, { maxLength: 3 }));
  if (t !== "object") options.push(fc.constant({}), fc.dictionary(junkString, junkString, { maxKeys: 3 }));
  if (!schema.nullable) options.push(fc.constant(null));
  // Deeply nested JSON where a scalar belongs.
  if (t !== "array" && t !== "object")
    options.push(fc.constantFrom(JSON.parse(deep(3000, "[", "]")) as unknown, JSON.parse(`${'{"a":'.repeat(1000)}1${"}".repeat(1000)}`) as unknown));
  return fc.oneof(...options);
}

/** `p` repeated past `max` code points, with "x" at both ends so trimming cannot shorten it. */
function tooLong(p: string, max: number): string {
  let k = Math.ceil((max + 1) / Math.max(1, [...p].length));
  while ([...`x${p.repeat(k)}x`].length <= max) k *= 2;
  return `x${p.repeat(k)}x`;
}

/** Values of the right JSON type that break a declared bound. */
function outOfBounds(schema: Schema): fc.Arbitrary<unknown> | undefined {
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) options.push(junkString.filter((s) => !schema.enum!.includes(s)));
  if (schema.type === "string" && schema.maxLength !== undefined) {
    const max = schema.maxLength;
    // JSON Schema (and zod) count code points; "x" at both ends so trimming cannot shorten it.
    options.push(fc.constantFrom(...PAYLOADS).map((p) => tooLong(p, max)));
  }
  if (schema.type === "string" && (schema.minLength ?? 0) > 0) options.push(fc.constant(""));
  if (schema.type === "number" || schema.type === "integer") {
    if (typeof schema.maximum === "number") options.push(fc.constantFrom(schema.maximum + 1, 1e308, schema.maximum * 10 + 1));
    if (typeof schema.minimum === "number") options.push(fc.constantFrom(schema.minimum - 1, -1e308, schema.minimum - 0.5));
    if (schema.type === "integer") options.push(fc.constantFrom(0.5, 1.25, -2.5).map((x) => (schema.minimum ?? 0) + 1 + x));
  }
  if (schema.type === "array" && schema.maxItems !== undefined) options.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, (_, i) => `k${i}`)));
  return options.length ? fc.oneof(...options) : undefined;
}

export function deref(doc: Doc, s: Schema | undefined): Schema | undefined {
  let out = s;
  for (let i = 0; out?.$ref && i < 10; i++) out = doc.components?.schemas?.[out.$ref.replace("#/components/schemas/", "")];
  if (out?.allOf?.length === 1) return deref(doc, out.allOf[0]);
  return out;
}

/** A JSON body that the body schema cannot accept. */
function invalidBody(doc: Doc, schema: Schema, bodyRequired: boolean): fc.Arbitrary<string> {
  const s = deref(doc, schema)!;
  const props = Object.entries(s.properties ?? {}).map(([k, v]) => [k, deref(doc, v)!] as const);
  const breakers: fc.Arbitrary<Record<string, unknown>>[] = [];
  for (const [k, p] of props) {
    const wrong = wrongType(p);
    if (wrong) breakers.push(wrong.map((v) => ({ [k]: v })));
    const bound = outOfBounds(p);
    if (bound) breakers.push(bound.map((v) => ({ [k]: v })));
  }
  // A missing required field: the other fields get junk of any kind (never all that is needed).
  const required = s.required ?? [];
  if (required.length)
    breakers.push(
      fc.dictionary(
        junkString.filter((k) => !required.includes(k)),
        junkString,
        { maxKeys: 3 },
      ),
    );
  const junkKeys = fc.dictionary(
    junkString.filter((k) => !props.some(([p]) => p === k)),
    fc.oneof(junkString, hugeNumber),
    { maxKeys: 3 },
  );
  const objectBodies = breakers.length
    ? fc.tuple(fc.oneof(...breakers), junkKeys, fc.subarray(PROTO)).map(([bad, junk, proto]) => {
        const text = JSON.stringify({ ...junk, ...bad });
        return proto.length ? `{${proto.join(",")}${text === "{}" ? "" : "," + text.slice(1, -1)}}` : text;
      })
    : undefined;
  const notObjects = fc.oneof(
    wrongType({ type: "object" })!.map((v) => JSON.stringify(v)),
    // No body at all is invalid only where the description requires one.
    fc.constantFrom(deep(5000, "[", "]"), '{"a":', "{'single':1}", "\u0000", "[1,2,", '{"a":1}{"b":2}', "NaN", "1e99999", ...(bodyRequired ? [""] : [])),
  );
  return objectBodies ? fc.oneof({ arbitrary: objectBodies, weight: 4 }, { arbitrary: notObjects, weight: 1 }) : notObjects;
}

/** Query strings the query parameters cannot accept (one parameter broken, the rest left out). */
function invalidQueries(params: Param[]): fc.Arbitrary<string> | undefined {
  const options: fc.Arbitrary<string>[] = [];
  for (const p of params) {
    const s = p.schema;
    const pair = (v: unknown) => `${enc(p.name)}=${enc(String(v))}`;
    if (s.type === "number" || s.type === "integer") {
      options.push(junkString.map(notNumeric).map(pair));
      const b = outOfBounds({ ...s, enum: undefined });
      if (b) options.push(b.map(pair));
      options.push(fc.tuple(fc.integer(), fc.integer()).map(([a, b]) => `${pair(a)}&${pair(b)}`));
    } else if (s.enum) options.push(junkString.filter((v) => !s.enum!.includes(v)).map(pair));
    else if (s.type === "string" && s.maxLength !== undefined) options.push(outOfBounds({ type: "string", maxLength: s.maxLength })!.map(pair));
    else if (s.type === "boolean") options.push(junkString.filter((v) => v !== "true" && v !== "false").map(pair));
  }
  // A required parameter left out, with junk parameters the operation does not know.
  if (params.some((p) => p.required))
    options.push(fc.array(junkString, { minLength: 1, maxLength: 3 }).map((vs) => vs.map((v, i) => `zz${i}=${enc(v)}`).join("&")));
  return options.length ? fc.oneof(...options) : undefined;
}

/**
 * Record ids that cannot exist: attack strings, unicode, overlong, empty-ish. Not ".." (or %2E%2E):
 * WHATWG URL parsing resolves it in the client, so the request would not carry it.
 */
const junkId = fc
  .oneof(junkString, fc.constant("x".repeat(101)), fc.uuid(), fc.constantFrom("%", "null", "undefined", "0", "-1", "[object Object]", "...", "a/b"))
  .filter((id) => id !== "." && id !== "..");

/** Malformed credentials: the wrapper must answer 401 before anything else. */
const junkCredential = fc.oneof(
  fc
    .string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 300 })
    .map((t) => ({ authorization: `Bearer ${t}` })),
  fc
    .constantFrom("Basic YWRtaW46YWRtaW4=", "Bearer", "Bearer  ", "bearer etk_", "Bearer etk_" + "A".repeat(43), "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
    .map((a) => ({ authorization: a })),
  fc.constantFrom("etk_nope", "' OR 1=1 --", "x".repeat(500)).map((k) => ({ "x-api-key": k })),
);

export function invalidInputs(doc: Doc, method: string, template: string, count: number, seed: number): FuzzInput[] {
  const op = doc.paths[template]![method]!;
  const params = (op.parameters ?? []).map((p) => ({ ...p, schema: deref(doc, p.schema) ?? {} }));
  const pathParams = params.filter((p) => p.in === "path");
  const query = params.filter((p) => p.in === "query");
  const json = op.requestBody?.content["application/json"]?.schema;
  const fill = (ids?: string[]) => {
    let i = 0;
    return template.replace(/\{[^}]+\}/g, () => enc(ids?.[i++] ?? "fuzz-missing-record"));
  };
  const kinds: { kind: string; weight: number; arb: fc.Arbitrary<FuzzInput> }[] = [];
  const base = (extra: Partial<FuzzInput>): FuzzInput => ({ kind: "", path: fill(), headers: {}, auth: true, ...extra });
  kinds.push({ kind: "credential", weight: 4, arb: junkCredential.map((h) => base({ kind: "credential", headers: h, auth: false })) });
  if (json) {
    kinds.push({
      kind: "body",
      weight: 20,
      arb: invalidBody(doc, json, op.requestBody?.required !== false).map((body) =>
        base({ kind: "body", body, headers: { "content-type": "application/json" } }),
      ),
    });
    kinds.push({
      kind: "body-size",
      weight: 1,
      arb: fc.constantFrom(
        base({ kind: "body-size", body: `{"x":"${"a".repeat(1024 * 1024 + 10)}"}`, headers: { "content-type": "application/json" } }),
        base({ kind: "body-type", body: "--b\r\n\r\n--b--", headers: { "content-type": "multipart/form-data; boundary=b" } }),
      ),
    });
  }
  const q = invalidQueries(query);
  if (q) kinds.push({ kind: "query", weight: 14, arb: q.map((qs) => base({ kind: "query", path: `${fill()}?${qs}` })) });
  if (pathParams.length)
    kinds.push({
      kind: "path",
      weight: 14,
      arb: fc.array(junkId, { minLength: pathParams.length, maxLength: pathParams.length }).map((ids) => base({ kind: "path", path: fill(ids) })),
    });
  const arb = fc.oneof(...kinds.map((k) => ({ arbitrary: k.arb, weight: k.weight })));
  return fc.sample(arb, { seed, numRuns: count });
}

/** Attack strings in query parameters the description leaves open (may be valid: GET only). */
export function payloadInputs(doc: Doc, template: string, seed: number): FuzzInput[] {
  const op = doc.paths[template]!.get;
  if (!op || template.includes("{")) return [];
  const open = (op.parameters ?? []).filter((p) => p.in === "query" && (deref(doc, p.schema) ?? {}).type === "string" && !deref(doc, p.schema)?.enum);
  if (!open.length) return [];
  const arb = fc
    .tuple(fc.constantFrom(...open), fc.constantFrom(...PAYLOADS))
    .map(([p, v]) => ({ kind: "payload", path: `${template}?${enc(p.name)}=${enc(v.slice(0, p.schema.maxLength ?? 200))}`, headers: {}, auth: true }));
  return fc.sample(arb, { seed, numRuns: 20 });
}
