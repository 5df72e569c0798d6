// Every answer an integration test sees through `api()` is checked against the OpenAPI description
// the server publishes at /api/openapi: the status must be documented for the operation, the
// content type must be the documented one, and a JSON body must validate against its schema.
// A mismatch fails the test that made the call (fix the product or the description, not the test).
import Ajv, { type ValidateFunction } from "ajv";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
type Checker = { doc: Doc; ajv: Ajv; templates: { path: string; re: RegExp; literal: number }[] };

let checker: Promise<Checker> | undefined;
const compiled = new Map<string, ValidateFunction>();

export class ResponseMismatch extends Error {
  override name = "ResponseMismatch";
}

/** OpenAPI 3.0's `nullable` without `type` (zod-to-openapi's "any or null") means "any" to ajv. */
function relax(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relax);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = relax(v);
  if (out.nullable === true && out.type === undefined) delete out.nullable;
  return out;
}

async function load(base: string): Promise<Checker> {
  const res = await fetch(`${base}/api/openapi`);
  if (!res.ok) throw new Error(`GET /api/openapi answered ${res.status}`);
  const doc = relax(await res.json()) as Doc;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(doc as object, "openapi");
  const templates = Object.keys(doc.paths).map((path) => ({
    path,
    re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    // Literal paths win over templated ones (/api/products/search over /api/products/{id}).
    literal: path.replace(/\{[^}]+\}/g, "").length,
  }));
  templates.sort((a, b) => b.literal - a.literal);
  return { doc, ajv, templates };
}

const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** Throws ResponseMismatch when the answer disagrees with the published description. */
export async function checkResponse(base: string, method: string, pathname: string, status: number, contentType: string | null, text: string): Promise<void> {
  if (!pathname.startsWith("/api/") && pathname !== "/mcp") return;
  checker ??= load(base);
  const { doc, ajv, templates } = await checker;
  const template = templates.find((t) => t.re.test(pathname))?.path;
  const op = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
  if (!template || !op) return; // not an operation of the API (unknown path or method): nothing documented to hold it to
  const where = `${method} ${template} -> ${status}`;
  const response = op.responses[String(status)];
  if (!response)
    throw new ResponseMismatch(`${where}: status not documented (documented: ${Object.keys(op.responses).join(", ")}); body ${text.slice(0, 300)}`);
  if (!response.content) return;
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const media = response.content[type];
  if (!media) throw new ResponseMismatch(`${where}: content type "${type}" not documented (documented: ${Object.keys(response.content).join(", ")})`);
  if (!/json/.test(type)) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ResponseMismatch(`${where}: body is not JSON: ${text.slice(0, 200)}`);
  }
  const ref = `openapi#/paths/${pointer(template)}/${method.toLowerCase()}/responses/${status}/content/${pointer(type)}/schema`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || "/"} ${e.message}`)
      .join("; ");
    throw new ResponseMismatch(`${where}: body does not match the documented schema: ${errors}; body ${text.slice(0, 400)}`);
  }
}
