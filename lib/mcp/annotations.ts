// A tool's annotations (MCP ToolAnnotations) follow from the HTTP methods of its operations, so a
// new tool gets them right without anyone writing them: GET only reads (and repeating it changes
// nothing); PUT and DELETE may be repeated with no further effect; PUT, PATCH and DELETE overwrite
// or remove what exists, and so does a POST that ends something (cancel, decline, reject, close,
// revoke); other POSTs add (an inquiry, an order, a message) and are not idempotent unless retried
// with the same `idempotencyKey`.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Operation } from "@/lib/api/operation";

const ENDING_ACTION = /\/(cancel|decline|reject|close|revoke)$/;

function destructive(op: Operation): boolean {
  if (op.method === "GET") return false;
  if (op.method === "POST") return ENDING_ACTION.test(op.path);
  return true;
}

const idempotent = (op: Operation) => op.method === "GET" || op.method === "PUT" || op.method === "DELETE";

/** The annotations of a tool calling `ops` (one of them, chosen by an argument): true only if true of every one, destructive if any is. */
export function annotationsFor(ops: readonly Operation[]): ToolAnnotations {
  return {
    readOnlyHint: ops.every((op) => op.method === "GET"),
    destructiveHint: ops.some(destructive),
    idempotentHint: ops.every(idempotent),
    openWorldHint: false,
  };
}
