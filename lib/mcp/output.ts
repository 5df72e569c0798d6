// A tool's outputSchema is the JSON Schema of its operation's success response: the very zod schema
// the REST route documents in /api/openapi (lib/schemas/*), so MCP and REST cannot drift. Draft-07,
// which the SDK client's validator (ajv) reads; objects stay open as the REST description's are (a
// client must not fail on a field added later).
import { z } from "zod";
import type { Operation } from "@/lib/api/operation";

type Json = Record<string, unknown>;
export type OutputSchema = { type: "object"; properties?: Record<string, object>; required?: string[]; [k: string]: unknown };

/** The schema of the first documented 2xx response with one. */
export function successSchema(op: Operation): z.ZodType | undefined {
  const statuses = Object.keys(op.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  for (const s of statuses) if (op.responses[s]?.schema) return op.responses[s].schema;
  return undefined;
}

function open(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(open);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) if (!(k === "additionalProperties" && v === false)) out[k] = open(v);
  return out;
}

function toJson(schema: z.ZodType): Json {
  const out = open(z.toJSONSchema(schema, { io: "output", unrepresentable: "any", target: "draft-7" })) as Json;
  delete out.$schema;
  const defs = out.definitions as Json | undefined;
  const ref = typeof out.$ref === "string" ? /^#\/definitions\/(.+)$/.exec(out.$ref)?.[1] : undefined;
  if (ref && defs?.[ref]) {
    // A schema with `meta({ id })` comes back as a reference to itself: the root is inlined, the
    // definitions it (recursively) uses stay.
    const { $ref: _ref, ...rest } = out;
    return { ...(defs[ref] as Json), ...rest };
  }
  return out;
}

/** The output schema of a tool calling one of `ops`: one success shape, or any of theirs. */
export function outputSchemaFor(ops: readonly Operation[]): OutputSchema | undefined {
  const schemas = ops.map(successSchema);
  if (schemas.some((s) => !s)) return undefined;
  const shapes = schemas.map((s) => toJson(s!));
  if (shapes.length === 1) {
    const only = shapes[0]!;
    return only.type === "object" ? (only as OutputSchema) : undefined;
  }
  const definitions: Json = {};
  const anyOf = shapes.map(({ definitions: d, ...shape }) => {
    Object.assign(definitions, d ?? {});
    return shape;
  });
  if (anyOf.some((s) => s.type !== "object")) return undefined;
  return { type: "object", anyOf, ...(Object.keys(definitions).length ? { definitions } : {}) };
}
