import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPI } from "openapi-types";
import { describe, expect, inject, it } from "vitest";
import { api } from "../support/api";

describe("system endpoints", () => {
  it("GET /api/health reports the database", async () => {
    const res = await api<{ status: string; db: string; version: string; dbKind: string }>("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", db: "ok", dbKind: inject("dbKind") });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("GET /api/health does not query the database per request: a good probe serves for a second", async () => {
    // X-Query-Count (DEBUG_QUERY_COUNT=1 on the test server) counts the probe of the request that ran it.
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api("/api/health");
      expect(res.status).toBe(200);
      counts.push(Number(res.headers.get("x-query-count")));
    }
    expect(counts.filter((n) => n === 0).length).toBeGreaterThan(0);
  });

  it("GET /api/openapi is a valid OpenAPI 3.0 document", async () => {
    const res = await api<OpenAPI.Document>("/api/openapi");
    expect(res.status).toBe(200);
    const doc = await SwaggerParser.validate(res.body);
    expect((doc as { openapi: string }).openapi).toBe("3.0.3");
    expect(Object.keys(doc.paths ?? {})).toContain("/api/accounts/create");
  });

  it("answers unknown API paths with a problem+json 404", async () => {
    const res = await api("/api/does-not-exist", { method: "POST", json: {} });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.code).toBe("not_found");
  });
});
