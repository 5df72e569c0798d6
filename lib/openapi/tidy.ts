// zod-to-openapi writes `z.unknown()` as `{ nullable: true }` and `X.or(Y).nullable()` as an
// `anyOf` with a `{ nullable: true }` member. OpenAPI 3.0 gives `nullable` no meaning without a
// sibling `type` (Redocly's nullable-type-sibling), and generated clients then type the field as
// `unknown`. This pass rewrites both into their 3.0-correct forms without changing what validates.
type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node => !!v && typeof v === "object" && !Array.isArray(v);
/** A schema that says nothing but "may be null": zod's unknown, or the null member of a union. */
const isBareNullable = (v: unknown) => isObject(v) && v.nullable === true && v.type === undefined && v.$ref === undefined && !v.anyOf && !v.oneOf && !v.allOf;

function tidyNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidyNode);
  if (!isObject(node)) return node;
  const out: Node = { ...node };
  // Unions first, while their null member still looks like one (recursing would empty it).
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = out[key];
    if (!Array.isArray(members) || !members.some(isBareNullable)) continue;
    const rest = members.filter((m) => !isBareNullable(m)) as Node[];
    const typed = rest.filter((m) => m.type !== undefined);
    // null rides on the typed members; a union of references only keeps an explicit null member.
    if (typed.length) out[key] = rest.map((m) => (m.type !== undefined ? { ...m, nullable: true } : m));
    else out[key] = [...rest, { type: "string", nullable: true, enum: [null], description: "null" }];
  }
  for (const [k, v] of Object.entries(out)) out[k] = tidyNode(v);
  // "Any value" is the empty schema.
  if (isBareNullable(out)) delete out.nullable;
  return out;
}

/** The document with every type-less `nullable` rewritten (see the header). */
export function tidyNullable<T>(doc: T): T {
  return tidyNode(doc) as T;
}
