// A tool's input schema is its operation's zod schemas (path params + query + body) merged into
// one JSON Schema object, the input side of any transforms: what the REST route accepts.
import { z } from "zod";
import type { Operation } from "@/lib/api/operation";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, object>; required?: string[]; $defs?: Record<string, unknown> };
export type ObjectJsonSchema = { type: "object"; properties: Record<string, object>; required?: string[]; $defs?: Record<string, unknown> };

/** The property names of an object schema (or of the object a transform starts from). */
export function shapeKeys(schema: z.ZodType | undefined): string[] {
  let s: unknown = schema;
  // z.object(...).transform(...) is a pipe whose input side holds the shape.
  while (s && (s as z.ZodType).def?.type === "pipe") s = (s as z.ZodPipe).def.in;
  const shape = (s as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function toJson(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete out.$schema;
  // A schema with a `meta({ id })` comes back as a reference to itself: inline the root.
  const ref = typeof out.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(out.$ref)?.[1] : undefined;
  if (ref && out.$defs?.[ref]) {
    const { [ref]: root, ...rest } = out.$defs;
    return { ...(root as JsonSchema), ...(Object.keys(rest).length ? { $defs: rest } : {}) };
  }
  return out;
}

/** Merge the input parts of one or more operations, plus tool-level extras, into one object schema. */
export function mergeInputSchemas(ops: Operation[], extra: Record<string, object> = {}): ObjectJsonSchema {
  const properties: Record<string, object> = {};
  const required = new Set<string>();
  const defs: Record<string, unknown> = {};
  for (const op of ops) {
    for (const part of [op.params, op.query, op.body]) {
      if (!part) continue;
      const js = toJson(part);
      Object.assign(properties, js.properties ?? {});
      // A field is required only if every alternative route requires it.
      for (const r of js.required ?? []) if (ops.length === 1 || ops.every((o) => requiredIn(o, r))) required.add(r);
      Object.assign(defs, js.$defs ?? {});
    }
  }
  Object.assign(properties, extra);
  return {
    type: "object",
    properties,
    ...(required.size ? { required: [...required] } : {}),
    ...(Object.keys(defs).length ? { $defs: defs } : {}),
  };
}

function requiredIn(op: Operation, name: string): boolean {
  return [op.params, op.query, op.body].some((p) => p && (toJson(p).required ?? []).includes(name));
}
