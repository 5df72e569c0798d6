import { describe, expect, it } from "vitest";
import { apiAliasTarget, apiFirstSegments, prefersJson } from "@/lib/api/aliases";

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("API aliases", () => {
  it("derives the first path segments from the operations", () => {
    const segments = apiFirstSegments();
    for (const s of ["products", "auth", "buyer", "seller", "keys", "admin", "categories"]) expect(segments.has(s), s).toBe(true);
    for (const s of ["search", "mcp", "api", "uploads"]) expect(segments.has(s), s).toBe(false);
  });

  it("reads Accept by q, then specificity, then order", () => {
    expect(prefersJson(BROWSER)).toBe(false);
    // A client that names no HTML (curl's and python-requests' `*/*`, or no Accept) is not a browser.
    expect(prefersJson("")).toBe(true);
    expect(prefersJson("*/*")).toBe(true);
    expect(prefersJson("text/*")).toBe(false);
    expect(prefersJson("text/plain, */*;q=0.1")).toBe(true);
    expect(prefersJson("text/html, */*")).toBe(false);
    expect(prefersJson("application/json")).toBe(true);
    expect(prefersJson("application/json, text/plain, */*")).toBe(true);
    expect(prefersJson("text/html;q=0.5, application/json;q=0.9")).toBe(true);
    expect(prefersJson("text/html, application/json;q=0.9")).toBe(false);
    expect(prefersJson("application/json;q=0, */*")).toBe(false);
    expect(prefersJson("application/*, text/*;q=0.5")).toBe(true);
  });

  it("rewrites API requests only, and never Next's own navigations", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    expect(apiAliasTarget("/products", h({ accept: "application/json" }))).toBe("/api/products");
    expect(apiAliasTarget("/auth/login", h({ "content-type": "application/json; charset=utf-8" }))).toBe("/api/auth/login");
    expect(apiAliasTarget("/buyer/requirements", h({ authorization: "Bearer x" }))).toBe("/api/buyer/requirements");
    expect(apiAliasTarget("/products/1", h({ accept: BROWSER }))).toBeNull();
    expect(apiAliasTarget("/products", h({ accept: "*/*" }))).toBe("/api/products");
    expect(apiAliasTarget("/search", h({ accept: "application/json" }))).toBeNull();
    expect(apiAliasTarget("/", h({ accept: "application/json" }))).toBeNull();
    expect(apiAliasTarget("/products", h({ accept: "application/json", rsc: "1" }))).toBeNull();
  });
});
