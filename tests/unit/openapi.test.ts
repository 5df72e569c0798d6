import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { describe, expect, it } from "vitest";
import { isPermission } from "@/lib/ai/permissions";
import { HANDLER_MODULES } from "@/lib/api/handlers";
import { allOperations } from "@/lib/api/operations/list";
import type { OperationHandler } from "@/lib/api/route";
import { openApiDocument } from "@/lib/openapi/document";

const APP_DIR = path.join(__dirname, "../../app");
// Every HTTP route outside the pages: the API and the MCP tool server (documented with the API).
const ROUTE_DIRS = ["api", "mcp"].map((d) => path.join(APP_DIR, d));
// NextAuth's catch-all serves these; each is documented on its own.
const NEXTAUTH_PATHS = ["/api/auth/csrf", "/api/auth/callback/credentials", "/api/auth/session", "/api/auth/signout", "/api/auth/providers"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

function routesOnDisk(): { method: string; path: string }[] {
  return ROUTE_DIRS.flatMap(routeFiles).flatMap((file) => {
    const rel = path.relative(APP_DIR, path.dirname(file)).split(path.sep).join("/");
    const apiPath = "/" + rel.replace(/\[([^\].]+)\]/g, "{$1}");
    const src = readFileSync(file, "utf8");
    const methods = new Set(
      [
        ...src.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g),
        ...src.matchAll(/as (GET|POST|PUT|PATCH|DELETE)\b/g),
        ...[...src.matchAll(/export \{([^}]*)\} from/g)].flatMap((m) => [...m[1]!.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b/g)]),
      ].map((m) => m[1]!),
    );
    // Catch-alls: NextAuth (documented path by path) and the problem+json 404 for unknown paths.
    if (apiPath.includes("[...")) return [];
    return [...methods].map((method) => ({ method, path: apiPath }));
  });
}

describe("route files and the handler table", () => {
  it("re-export, at each path of app/api, exactly the handlers whose operation has that method and path", async () => {
    const files = routeFiles(path.join(APP_DIR, "api")).filter((f) => !f.includes("[..."));
    expect(files.length).toBe(HANDLER_MODULES.length);
    for (const file of files) {
      const rel = path.relative(APP_DIR, path.dirname(file)).split(path.sep).join("/");
      const apiPath = "/" + rel.replace(/\[([^\].]+)\]/g, "{$1}");
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, OperationHandler | undefined>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const h = mod[method];
        if (h) expect(`${h.op.method} ${h.op.path}`, file).toBe(`${method} ${apiPath}`);
      }
    }
  });
});

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.0", async () => {
    const doc = await SwaggerParser.validate(structuredClone(openApiDocument()) as OpenAPI.Document);
    expect((doc as { openapi: string }).openapi).toBe("3.0.3");
  });

  it("lists every route in app/api and app/mcp with every method it exports", () => {
    const doc = openApiDocument();
    const routes = routesOnDisk();
    expect(routes.length).toBeGreaterThan(5);
    // A method a route only refuses (405, e.g. GET /mcp) is no operation and stays out of the document.
    const refused = new Set(
      allOperations()
        .filter((op) => Object.keys(op.responses).every((s) => Number(s) >= 400))
        .map((op) => `${op.method} ${op.path}`),
    );
    const missing = routes.filter((r) => !refused.has(`${r.method} ${r.path}`) && !doc.paths?.[r.path]?.[r.method.toLowerCase() as "get"]);
    expect(missing).toEqual([]);
    for (const p of NEXTAUTH_PATHS) expect(doc.paths?.[p], p).toBeDefined();
  });

  it("documents no operation that has no route", () => {
    const onDisk = new Set(routesOnDisk().map((r) => `${r.method} ${r.path}`));
    const extra = allOperations().filter((op) => !onDisk.has(`${op.method} ${op.path}`) && !NEXTAUTH_PATHS.includes(op.path));
    expect(extra.map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it("describes every operation and every tag, and names each operation once", () => {
    const doc = openApiDocument();
    const ops = Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string; summary?: string; description?: string }>),
    );
    for (const op of ops) {
      expect(op.summary, op.operationId).toBeTruthy();
      // More than the generated "who may call" line: what the operation does.
      expect(op.description?.split("\n\n")[0], op.operationId).not.toMatch(/^(\*\*Who may call|$)/);
    }
    const ids = ops.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
  });

  it("gives every request body an example that its schema accepts", () => {
    for (const op of allOperations().filter((o) => o.body)) {
      const body = openApiDocument().paths?.[op.path]?.[op.method.toLowerCase() as "post"]?.requestBody as { content: object } | undefined;
      const media = Object.values(body?.content ?? {})[0] as { example?: unknown; schema?: { $ref?: string; example?: unknown } } | undefined;
      const ref = media?.schema?.$ref?.split("/").pop();
      const example = media?.example ?? (ref ? (openApiDocument().components?.schemas?.[ref] as { example?: unknown }).example : media?.schema?.example);
      expect(example, op.operationId).toBeDefined();
      if ((op.bodyType ?? "json") === "json") expect(op.body!.safeParse(example).error?.issues, op.operationId).toBeUndefined();
    }
  });

  it("describes nearly every field of its schemas (the rest are names and titles)", () => {
    const schemas = Object.values(openApiDocument().components?.schemas ?? {}) as { properties?: Record<string, { description?: string; $ref?: string }> }[];
    const fields = schemas.flatMap((s) => Object.entries(s.properties ?? {}));
    const bare = fields.filter(([, f]) => !f.description && !f.$ref).map(([k]) => k);
    expect(bare.filter((k) => !["name", "title", "content"].includes(k)).length, bare.join(", ")).toBeLessThan(fields.length / 20);
  });

  it("has no `nullable` without a `type` (OpenAPI 3.0; generated clients would type the field unknown)", () => {
    const bad: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      if (o.nullable === true && o.type === undefined) bad.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(openApiDocument(), "#");
    expect(bad).toEqual([]);
  });

  it("declares, for every operation, a real permission or an explicit none with an action", () => {
    for (const op of allOperations()) {
      if (op.permission === "none") expect(op.action, op.operationId).toMatch(/^[a-z]+(\.[a-z_]+)+$/);
      else expect(isPermission(op.permission), op.operationId).toBe(true);
    }
  });
});
