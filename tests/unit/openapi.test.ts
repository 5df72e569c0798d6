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
    const missing = routes.filter((r) => !doc.paths?.[r.path]?.[r.method.toLowerCase() as "get"]);
    expect(missing).toEqual([]);
    for (const p of NEXTAUTH_PATHS) expect(doc.paths?.[p], p).toBeDefined();
  });

  it("documents no operation that has no route", () => {
    const onDisk = new Set(routesOnDisk().map((r) => `${r.method} ${r.path}`));
    const extra = allOperations().filter((op) => !onDisk.has(`${op.method} ${op.path}`) && !NEXTAUTH_PATHS.includes(op.path));
    expect(extra.map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it("declares, for every operation, a real permission or an explicit none with an action", () => {
    for (const op of allOperations()) {
      if (op.permission === "none") expect(op.action, op.operationId).toMatch(/^[a-z]+(\.[a-z_]+)+$/);
      else expect(isPermission(op.permission), op.operationId).toBe(true);
    }
  });
});
