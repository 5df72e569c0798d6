// Contract 9.5: a method the path does not have is a 405 problem+json with `Allow`, decided here
// once for every /api path (and /mcp) from the operation registry, before either the direct
// dispatch or Next sees the request (Next's own 405 has an empty body and no `Allow`). Operations
// marked `external` (NextAuth's catch-all) keep their own answers.
import { problemBody } from "@/lib/api/errors";
import { allOperations } from "@/lib/api/operations/list";
import { ApiError } from "@/lib/errors";

type Entry = { pattern: RegExp; statics: number[]; methods: Set<string>; external: boolean };

let table: Entry[] | undefined;

function entries(): Entry[] {
  if (table) return table;
  const byPath = new Map<string, Entry>();
  for (const op of allOperations()) {
    let e = byPath.get(op.path);
    if (!e) {
      const segments = op.path.split("/").filter(Boolean);
      const source = segments.map((s) => (s.startsWith("{") ? "/[^/]+" : "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
      e = { pattern: new RegExp(`^${source}/?$`), statics: segments.map((s) => (s.startsWith("{") ? 1 : 0)), methods: new Set(), external: false };
      byPath.set(op.path, e);
    }
    e.methods.add(op.method);
    if (op.external) e.external = true;
  }
  // Next's precedence: at each segment a static name before a parameter.
  table = [...byPath.values()].sort((a, b) => {
    for (let i = 0; i < Math.max(a.statics.length, b.statics.length); i++) {
      const d = (a.statics[i] ?? -1) - (b.statics[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  });
  return table;
}

/** The methods `pathname` answers (for `Allow`), or null when no operation has that path. */
export function allowedMethods(pathname: string): string[] | null {
  const hit = entries().find((e) => e.pattern.test(pathname));
  if (!hit || hit.external) return null;
  const methods = new Set(hit.methods);
  // Next answers HEAD for every GET and OPTIONS for every route by itself.
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return [...methods].sort();
}

/** The 405 answer for `method` on `pathname`, or null when the path has that method (or is not ours). */
export function methodNotAllowed(method: string, pathname: string): { status: 405; headers: [string, string][]; body: string } | null {
  const allowed = allowedMethods(pathname);
  if (!allowed || allowed.includes(method)) return null;
  const allow = allowed.join(", ");
  const err = new ApiError("method_not_allowed", `${method} is not allowed on ${pathname}; allowed: ${allow}`);
  return {
    status: 405,
    headers: [
      ["Content-Type", "application/problem+json"],
      ["Allow", allow],
    ],
    body: JSON.stringify(problemBody(err)),
  };
}
