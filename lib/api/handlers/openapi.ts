// GET /api/openapi - the OpenAPI 3.0 description
import { openapiOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { openApiDocument } from "@/lib/openapi/document";

export const GET = route(openapiOp, async () => json(openApiDocument(), 200, { "Cache-Control": "public, max-age=300" }));
