import { z } from "zod";
import { errorResponses } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

export const HealthResponse = z
  .object({ status: z.enum(["ok", "error"]), db: z.enum(["ok", "down"]), version: z.string(), dbKind: z.enum(["pglite", "postgres"]).optional() })
  .meta({ id: "Health" });

export const healthOp = defineOperation({
  method: "GET",
  path: "/api/health",
  operationId: "health",
  summary: "Health check",
  description: "503 when the database does not answer. Exempt from rate limits.",
  tags: ["System"],
  access: "public",
  permission: "none",
  action: "system.health",
  rateLimited: false,
  transactional: false,
  responses: { 200: { description: "Healthy", schema: HealthResponse }, 503: { description: "Database down", schema: HealthResponse } },
});

export const openapiOp = defineOperation({
  method: "GET",
  path: "/api/openapi",
  operationId: "openapi",
  summary: "This OpenAPI 3.0 description",
  tags: ["System"],
  access: "public",
  permission: "none",
  action: "system.openapi",
  transactional: false,
  responses: { 200: { description: "OpenAPI document", schema: z.looseObject({ openapi: z.string() }) }, ...errorResponses(429) },
});
