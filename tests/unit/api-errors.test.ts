import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it, vi } from "vitest";
import { toApiError } from "@/lib/api/route";
import { ApiError } from "@/lib/errors";

describe("failures as API errors", () => {
  it("answers 503 when the database goes away (connection errors, PostgreSQL shutdown and connection codes), 500 otherwise", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const status = (err: unknown) => toApiError(err, "r").status;
    expect(status(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(503);
    expect(status(Object.assign(new Error("the database system is shutting down"), { code: "57P03" }))).toBe(503);
    expect(status(Object.assign(new Error("connection failure"), { code: "08006" }))).toBe(503);
    expect(status(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(503);
    expect(status(Object.assign(new Error("duplicate key value"), { code: "23505" }))).toBe(500);
    expect(status(new Error("boom"))).toBe(500);
    expect(toApiError(new ApiError("not_found", "x"), "r").status).toBe(404);
    quiet.mockRestore();
  });

  it("looks through Drizzle's wrapper to the driver's error, and never at the statement's parameters", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const wrapped = (cause: Error, params: unknown[] = []) => new DrizzleQueryError("update products set title = $1", params, cause);
    expect(toApiError(wrapped(Object.assign(new Error("terminating connection"), { code: "57P01" })), "r").status).toBe(503);
    expect(toApiError(wrapped(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })), "r").status).toBe(503);
    // A title reading like an outage is user text: a failure of that statement stays what it is.
    expect(toApiError(wrapped(Object.assign(new Error("value too long"), { code: "22001" }), ["ECONNREFUSED lamp"]), "r").status).toBe(500);
    quiet.mockRestore();
  });

  it("answers a deadlock or serialization failure 503 with Retry-After: the same request sent again gets past it", () => {
    const quiet = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const code of ["40P01", "40001"]) {
      const err = toApiError(new DrizzleQueryError("insert into catalog_term_counts ...", [], Object.assign(new Error("deadlock detected"), { code })), "r");
      expect([err.status, err.code, err.headers?.["Retry-After"]]).toEqual([503, "service_unavailable", "1"]);
    }
    quiet.mockRestore();
  });
});
