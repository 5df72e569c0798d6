import { describe, expect, it } from "vitest";
import { API_CSP, baseSecurityHeaders } from "@/lib/security/headers";
import { api, baseUrl } from "../support/api";

// /api/* through the custom server's direct dispatch (lib/server/api-router.ts): the light request
// and the one-writeHead answer, seen from outside.
describe("direct API dispatch", () => {
  it("writes each security header once, with the API's CSP, next to the wrapper's own", async () => {
    const res = await fetch(`${baseUrl()}/api/health`);
    expect(res.status).toBe(200);
    for (const [name, value] of baseSecurityHeaders(false)) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get("content-security-policy")).toBe(API_CSP);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(text));
  });

  it("reads request headers whatever their case", async () => {
    const res = await api("/api/keys", { headers: { AUTHORIZATION: "Bearer not-a-token" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthenticated");
  });

  it("answers malformed JSON 400 through the wrapper, and keeps the connection usable", async () => {
    const res = await api("/api/auth/login", { method: "POST", body: '{"username": ', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect((await api("/api/health")).status).toBe(200);
  });
});
