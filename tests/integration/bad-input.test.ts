import { describe, expect, it } from "vitest";
import { api, createUser, login } from "../support/api";

// Every JSON route of the foundation: malformed JSON, wrong types and missing fields are a 400
// `validation_failed` problem naming the field, and change nothing.
const ROUTES: { path: string; auth: boolean; valid: Record<string, unknown>; wrongType: [string, unknown] }[] = [
  {
    path: "/api/accounts/create",
    auth: false,
    valid: { email: "x@example.test", username: "valid_name", password: "long-enough-1", role: "BUYER" },
    wrongType: ["email", 42],
  },
  { path: "/api/auth/login", auth: false, valid: { email: "someone", password: "pw" }, wrongType: ["password", { a: 1 }] },
  { path: "/api/auth/delegate-login", auth: false, valid: { email: "someone", password: "pw", restrictTo: "NON_ADMIN" }, wrongType: ["email", ["x"]] },
  { path: "/api/ai/accounts", auth: true, valid: { role: "AI_BUYER", password: "long-enough-1" }, wrongType: ["role", true] },
];

describe("bad input on every JSON route", () => {
  it.each(ROUTES)("$path", async (r) => {
    const user = await createUser("BUYER");
    const token = r.auth ? await login(user.username, user.password) : undefined;
    const send = (body: string) => api(r.path, { method: "POST", body, token, headers: { "content-type": "application/json" } });

    const malformed = await send('{"email": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("validation_failed");
    expect(malformed.headers.get("content-type")).toContain("application/problem+json");

    const [field, bad] = r.wrongType;
    const wrong = await send(JSON.stringify({ ...r.valid, [field]: bad }));
    expect(wrong.status).toBe(400);
    expect((wrong.body.errors as { path: string }[]).map((e) => e.path)).toContain(field);

    for (const key of Object.keys(r.valid)) {
      const { [key]: _omit, ...rest } = r.valid;
      const missing = await send(JSON.stringify(rest));
      expect(missing.status, `${r.path} without ${key}`).toBe(400);
      expect((missing.body.errors as { path: string }[]).map((e) => e.path)).toContain(key);
    }
    for (const body of ["null", "[]", '"text"', "12"]) expect((await send(body)).status).toBe(400);

    if (r.auth) {
      // Nothing was written by any of the refused calls.
      const list = await api<{ accounts: unknown[] }>("/api/ai/accounts", { token });
      expect(list.body.accounts).toEqual([]);
    }
  });
});
