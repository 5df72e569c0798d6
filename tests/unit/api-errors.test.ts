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
});
