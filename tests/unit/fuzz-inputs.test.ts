// The fuzzer's promise, checked against the source: every body and query it generates as invalid
// is refused by the operation's own zod schema (so the integration fuzz may demand 4xx and no write).
import { describe, expect, it } from "vitest";
import { allOperations } from "@/lib/api/operations/list";
import { openApiDocument } from "@/lib/openapi/document";
import { invalidInputs, type Doc } from "../support/fuzz";

describe("fuzz inputs from the OpenAPI description", () => {
  it("are all refused by the operations' schemas", () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument())) as Doc;
    const accepted: string[] = [];
    let checked = 0;
    for (const op of allOperations()) {
      // A method a path only refuses (405, GET /mcp) is not in the description: nothing to fuzz from.
      if (!doc.paths[op.path]?.[op.method.toLowerCase()]) continue;
      for (const input of invalidInputs(doc, op.method.toLowerCase(), op.path, 200, 1)) {
        const url = new URL(input.path, "http://x");
        if (input.kind === "body" && op.body) {
          let value: unknown;
          try {
            value = input.body === "" ? undefined : JSON.parse(input.body!);
          } catch {
            continue; // malformed JSON: refused before any schema
          }
          checked++;
          if (op.body.safeParse(value).success) accepted.push(`${op.method} ${op.path} body ${input.body!.slice(0, 200)}`);
        }
        if (input.kind === "query" && op.query) {
          const query: Record<string, string | string[]> = {};
          for (const [k, v] of url.searchParams) {
            const prev = query[k];
            query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
          }
          checked++;
          if (op.query.safeParse(query).success) accepted.push(`${op.method} ${op.path} query ${input.path.slice(0, 200)}`);
        }
      }
    }
    console.log(`fuzz inputs checked against the source schemas: ${checked}`);
    expect(checked).toBeGreaterThan(5000);
    expect(accepted).toEqual([]);
  }, 60_000);
});
