// A request's input for the route wrapper: path parameters, query and JSON body, read within their
// limits and validated by the operation's zod schemas (lib/api/validate.ts).
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { jsonShapeProblem } from "./json-shape";
import type { Operation } from "./operation";
import { validate } from "./validate";

export const JSON_BODY_LIMIT = 1024 * 1024;

export type Input = {
  params: unknown;
  query: unknown;
  body: unknown;
  /** The JSON body as read (hashed for an Idempotency-Key); undefined for other bodies. */
  rawBody: string | undefined;
};

/** Path, query and JSON body, in that order; multipart bodies are left to the handler. */
export async function parseInput(op: Operation, req: Request, pathParams: unknown): Promise<Input> {
  const params = parse(op.params, pathParams, "path");
  const query = op.query ? parse(op.query, queryObject(new URL(req.url).searchParams), "query") : undefined;
  const rawBody = op.body && (op.bodyType ?? "json") === "json" ? await readBody(req) : undefined;
  const body = op.body && (op.bodyType ?? "json") === "json" ? parse(op.body, parseJson(rawBody!), "body") : undefined;
  return { params, query, body, rawBody };
}

/** Input that arrives already structured (an MCP tool's arguments), as a URL and a JSON body would carry it. */
export type StructuredInput = {
  params: Record<string, string | undefined>;
  query: Record<string, string | string[]>;
  body: Record<string, unknown> | undefined;
};

/** The same checks as parseInput, on structured input: the JSON body is measured as its text would be. */
export function parseStructuredInput(op: Operation, input: StructuredInput): Input {
  const params = parse(op.params, input.params, "path");
  const query = op.query ? parse(op.query, input.query, "query") : undefined;
  const json = op.body && (op.bodyType ?? "json") === "json";
  const rawBody = json ? JSON.stringify(input.body ?? {}) : undefined;
  if (rawBody !== undefined && Buffer.byteLength(rawBody) > JSON_BODY_LIMIT)
    throw new ApiError("payload_too_large", `The body exceeds ${JSON_BODY_LIMIT} bytes`);
  const body = json ? parse(op.body, parseJson(rawBody!), "body") : undefined;
  return { params, query, body, rawBody };
}

function parse(schema: z.ZodType | undefined, value: unknown, where: "path" | "query" | "body"): unknown {
  if (!schema) return undefined;
  return validate(schema, value ?? (where === "body" ? undefined : {}), where);
}

/** Query parameters as an object; a repeated name gives an array. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  const shape = jsonShapeProblem(text);
  if (shape) throw new ApiError("validation_failed", `The request body is refused unparsed: ${shape}`, { errors: [{ path: "", message: shape }] });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("validation_failed", "The request body is not valid JSON", { errors: [{ path: "", message: "Malformed JSON" }] });
  }
}

/** Read the body as text, refusing more than 1 MiB without buffering the rest. */
export async function readBody(req: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  const type = req.headers.get("content-type") ?? "";
  if (/^multipart\//i.test(type)) throw new ApiError("unsupported_media_type", "Send JSON (Content-Type: application/json)");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ApiError("payload_too_large", `The body exceeds ${limit} bytes`);
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  await eachChunk(req.body, limit, (chunk) => chunks.push(chunk));
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
}

/** Read a body chunk by chunk, refusing (and no longer reading) past `limit` bytes. */
export async function eachChunk(body: ReadableStream<Uint8Array>, limit: number, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", `The body exceeds ${limit} bytes`);
    }
    onChunk(value);
  }
}
