// Input validation shared by the route wrapper (path, query, body) and the chat socket (message
// frames): U+0000 refused up front (PostgreSQL text cannot hold it; it must be a 400, not a
// database error), then the zod schema, with the first problem named in the detail.
import type { z } from "zod";
import { ApiError, fieldErrors } from "@/lib/errors";

const NUL_MESSAGE = "NUL characters (U+0000) are not accepted";

/** `value` parsed by `schema`, or a `validation_failed` ApiError naming `where` and the field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const nul = nulPath(value);
  if (nul !== null) {
    throw new ApiError("validation_failed", `Invalid ${where}: ${nul ? nul + ": " : ""}${NUL_MESSAGE}`, { errors: [{ path: nul, message: NUL_MESSAGE }] });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues);
  const first = errors[0];
  const detail = first ? `Invalid ${where}: ${first.path ? first.path + ": " : ""}${first.message}` : `Invalid ${where}`;
  throw new ApiError("validation_failed", detail, { errors });
}

/** The path of the first string (value or key) holding U+0000, or null. Iterative: JSON may nest deeply. */
function nulPath(value: unknown): string | null {
  // The path is built only for a value that has a NUL: building one per element made this walk
  // the dearest step of a request with many small values (contract 9.1).
  if (!holdsNul(value)) return null;
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\0")) return path;
    } else if (v && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (k.includes("\0")) return p;
        stack.push([child, p]);
      }
    }
  }
  return null;
}

function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes("\0")) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
    } else if (v && typeof v === "object") {
      // Object.values, not v[k]: a JSON key "__proto__" is an own property v["__proto__"] would miss.
      for (const k of Object.keys(v)) if (k.includes("\0")) return true;
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return false;
}
