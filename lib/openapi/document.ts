// The OpenAPI 3.0 document, generated from the operations (the same zod schemas the handlers use).
import { OpenAPIRegistry, OpenApiGeneratorV3 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { wrapperStatuses, type Operation, type ResponseSpec } from "@/lib/api/operation";
import { errorResponses } from "@/lib/schemas/common";
import pkg from "@/package.json";
import { allOperations } from "@/lib/api/operations/list";
import { OPERATION_DESCRIPTIONS, TAG_DESCRIPTIONS } from "./descriptions";
import { REQUEST_EXAMPLES } from "./examples";
import { describeFields } from "./fields";
import { tidyNullable } from "./tidy";

let cached: ReturnType<OpenApiGeneratorV3["generateDocument"]> | undefined;

export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A JWT from `POST /api/auth/login`, or an API key (`etk_...`) from `POST /api/keys`",
  });
  registry.registerComponent("securitySchemes", "apiKeyAuth", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "An API key (`etk_...`) from `POST /api/keys`",
  });
  registry.registerComponent("securitySchemes", "cookieAuth", { type: "apiKey", in: "cookie", name: "next-auth.session-token" });
  // A method a path refuses (GET /mcp answers only 405) is not an operation; the 405 rule is in info.
  const ops = allOperations()
    .filter(offered)
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const op of ops) registry.registerPath(pathConfig(op));
  const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: "3.0.3",
    info: {
      title: "Expo Trade API",
      version: pkg.version,
      description:
        "B2B exhibition and trade platform. Errors are RFC 9457 problem details with a stable `code`. Lists take `page` and `limit` (max 100). " +
        "AI agent accounts use the same API under the permissions their guardian sets; every call they make is audited. " +
        "Every 401 carries `WWW-Authenticate: Bearer`; a method a path does not offer answers 405 problem+json with `Allow`.",
      contact: { name: "Expo Trade" },
      license: { name: "Proprietary" },
    },
    servers: [{ url: "/" }],
    tags: [...new Set(ops.flatMap((o) => o.tags))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" })),
  });
  cached = tidyNullable(doc);
  describeFields(cached);
  return cached;
}

const offered = (op: Operation) => Object.keys(op.responses).some((s) => Number(s) < 400);

function pathConfig(op: Operation) {
  const contentType = op.bodyType === "form" ? "application/x-www-form-urlencoded" : op.bodyType === "multipart" ? "multipart/form-data" : "application/json";
  const needsAuth = op.access !== "public" && op.access !== "optional";
  return {
    method: op.method.toLowerCase() as Lowercase<Operation["method"]>,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description ?? OPERATION_DESCRIPTIONS[op.operationId], whoMayCall(op), errorsNote(op)].filter(Boolean).join("\n\n"),
    tags: [...op.tags],
    security: needsAuth ? [{ bearerAuth: [] as string[] }, { apiKeyAuth: [] as string[] }, { cookieAuth: [] as string[] }] : ([] as Record<string, string[]>[]),
    request: {
      ...(op.params ? { params: op.params as z.ZodObject } : {}),
      ...(op.query ? { query: op.query as z.ZodObject } : {}),
      // A body the schema accepts leaving out (POST /api/offers/{id}/accept) is not required.
      ...(op.body ? { body: { required: !op.body.safeParse(undefined).success, content: { [contentType]: requestMedia(op) } } } : {}),
      ...(op.method === "POST" && op.idempotent !== false
        ? { headers: z.object({ "Idempotency-Key": z.string().max(255).optional().meta({ description: "Replays the first answer for 24 h" }) }) }
        : {}),
    },
    responses: Object.fromEntries(
      Object.entries<ResponseSpec>({ ...errorResponses(...wrapperStatuses(op)), ...op.responses }).map(([status, r]) => [
        status,
        {
          description: r.description,
          ...(r.schema
            ? {
                content: {
                  [r.contentType ?? "application/json"]: { schema: r.schema },
                  ...Object.fromEntries(Object.entries(r.alternatives ?? {}).map(([t, schema]) => [t, { schema }])),
                },
              }
            : {}),
        },
      ]),
    ),
  };
}

function requestMedia(op: Operation) {
  const example = REQUEST_EXAMPLES[op.operationId];
  return { schema: op.body as z.ZodType, ...(example === undefined ? {} : { example }) };
}

const ACCESS: Record<Operation["access"], string> = {
  public: "Anyone may call it, without credentials",
  optional: "Anyone may call it; credentials, when sent, are checked and used",
  user: "Any signed-in account, human or AI (session cookie, Bearer token or API key)",
  human: "Signed-in humans only (an AI account gets 404)",
  admin: "ADMIN accounts only",
};

function whoMayCall(op: Operation): string {
  if (op.external) return "";
  const ai = op.permission === "none" ? "" : ` AI accounts need the permission \`${op.permission}\`.`;
  return `**Who may call:** ${ACCESS[op.access]}.${ai}`;
}

/** The answers an operation declares itself (the wrapper's own 401/429/503... are in every one). */
function errorsNote(op: Operation): string {
  const own = Object.entries(op.responses).filter(([s]) => Number(s) >= 400 && ![401, 413, 415, 429, 503].includes(Number(s)));
  return own.length ? `**Errors:** ${own.map(([s, r]) => `${s} ${r.description}`).join("; ")}.` : "";
}
