// Issue #7 point 5, contract 9.1: sign-in is slowed per account and source address, on all three
// login routes, with the counts in the database; the owner's usual address is never locked out.
// A server of its own with low limits (the shared one runs with limits too high to reach); clients
// come from distinct loopback addresses (127.x.y.z), so each test is its own set of "machines".
import { request } from "node:http";
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

const PER_ACCOUNT = 4;
const PER_ACCOUNT_ALL = 8;
const PER_IP = 10;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(
    {
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
      LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: String(PER_ACCOUNT_ALL),
      LOGIN_MAX_FAILURES_PER_IP: String(PER_IP),
      // A day-long window: a test never straddles two windows.
      LOGIN_FAILURE_WINDOW_SECONDS: "86400",
    },
    { timeoutMs: 180_000 },
  );
}, 200_000);
afterAll(async () => {
  await server?.stop();
});

type Res = { status: number; body: Record<string, unknown>; headers: Record<string, string | string[] | undefined> };

/** A client on its own loopback address. */
function machine() {
  const ip = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const send = (path: string, method: string, body: string | undefined, headers: Record<string, string>) =>
    new Promise<Res>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, headers, localAddress: ip }, (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => {
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  const json = (path: string, payload: unknown) => send(path, "POST", JSON.stringify(payload), { "content-type": "application/json" });
  return {
    ip,
    send,
    login: (email: string, password: string) => json("/api/auth/login", { email, password }),
    delegate: (email: string, password: string) => json("/api/auth/delegate-login", { email, password, restrictTo: "NON_ADMIN" }),
    /** The credentials callback: the session cookie it set (or null) and its error code. */
    async callback(email: string, password: string) {
      const csrf = await send("/api/auth/csrf", "GET", undefined, {});
      const cookie = ((csrf.headers["set-cookie"] as string[] | undefined) ?? []).map((c) => c.split(";")[0]).join("; ");
      const form = new URLSearchParams({ csrfToken: String(csrf.body.csrfToken), email, password, callbackUrl: "/", json: "true" });
      const res = await send("/api/auth/callback/credentials", "POST", form.toString(), { "content-type": "application/x-www-form-urlencoded", cookie });
      const session = ((res.headers["set-cookie"] as string[] | undefined) ?? []).find((c) => c.startsWith("next-auth.session-token="));
      return { session: session ?? null, error: new URL(String(res.body.url ?? "/"), server.url).searchParams.get("error") };
    },
  };
}

async function newUser() {
  const username = `bf${Date.now().toString(36)}${randomInt(1e6)}`;
  const password = `pw-${randomInt(1e9)}`;
  const res = await machine().send("/api/accounts/create", "POST", JSON.stringify({ email: `${username}@example.test`, username, password, role: "BUYER" }), {
    "content-type": "application/json",
  });
  expect(res.status).toBe(201);
  return { username, email: `${username}@example.test`, password };
}

function expectThrottled(res: Res) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe("rate_limited");
  const retry = Number(res.headers["retry-after"]);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(86400);
}

describe("brute force on sign-in", () => {
  it("holds an account at the address of its failures, on every route, for real and unknown names alike", async () => {
    const user = await newUser();
    const attacker = machine();
    // Failures through all three routes count against the same account.
    expect((await attacker.login(user.username, "wrong-1")).status).toBe(401);
    expect((await attacker.delegate(user.email, "wrong-2")).status).toBe(401);
    expect((await attacker.callback(user.username, "wrong-3")).error).toBe("CredentialsSignin");
    expect((await attacker.login(user.email.toUpperCase(), "wrong-4")).status).toBe(401);
    // Now even the right password waits at this address, on every route.
    const held = await attacker.login(user.username, user.password);
    expectThrottled(held);
    expectThrottled(await attacker.delegate(user.email, user.password));
    const cb = await attacker.callback(user.username, user.password);
    expect(cb.session).toBeNull();
    expect(cb.error).toBe("rate_limited");
    // Another address is slowed on its own count, not by the attacker's.
    const elsewhere = machine();
    expect((await elsewhere.login(user.username, "wrong-5")).status).toBe(401);
    expect((await elsewhere.login(user.username, user.password)).status).toBe(200);

    // An unknown name answers exactly alike: same status, code and detail before and after.
    const ghost = `ghost${randomInt(1e9)}`;
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const res = await attacker.login(ghost, `wrong-${i}`);
      expect(res.status).toBe(401);
    }
    const ghostHeld = await attacker.login(ghost, "anything");
    expectThrottled(ghostHeld);
    expect((await machine().login(ghost, "anything")).status).toBe(401);
    const seconds = (d: unknown) => String(d).replace(/\d+/g, "N");
    expect(seconds(ghostHeld.body.detail)).toBe(seconds(held.body.detail));
  });

  it("holds every new address once guesses spread over many addresses pass the account's total", async () => {
    const user = await newUser();
    for (let m = 0; m < PER_ACCOUNT_ALL / PER_ACCOUNT; m++) {
      const attacker = machine();
      for (let i = 0; i < PER_ACCOUNT; i++) expect((await attacker.login(user.username, `guess-${m}-${i}`)).status).toBe(401);
    }
    expectThrottled(await machine().login(user.username, user.password));
    expectThrottled(await machine().delegate(user.email, user.password));
  });

  it("keeps the owner's usual address open while strangers hammer the account", async () => {
    const user = await newUser();
    const home = machine();
    expect((await home.login(user.username, user.password)).status).toBe(200);
    // Strangers from several addresses use up the account's total: new addresses are held.
    const attackers = [machine(), machine()];
    for (const attacker of attackers) for (let i = 0; i < PER_ACCOUNT; i++) expect((await attacker.login(user.username, `guess-${i}`)).status).toBe(401);
    expectThrottled(await attackers[0]!.login(user.username, user.password));
    expectThrottled(await machine().login(user.username, user.password));
    // The owner signs in from home on every route, with a typo or two allowed.
    expect((await home.login(user.username, "typo")).status).toBe(401);
    expect((await home.login(user.username, user.password)).status).toBe(200);
    expect((await home.delegate(user.username, user.password)).status).toBe(200);
    expect((await home.callback(user.username, user.password)).session).not.toBeNull();
    // Someone spraying other names from the owner's address does not hold the owner there either.
    // (the owner's typo was the address's first failure).
    for (let i = 1; i < PER_IP; i++) expect((await home.login(`spray${randomInt(1e9)}`, "Summer2026!")).status).toBe(401);
    expectThrottled(await home.login(`spray${randomInt(1e9)}`, "Summer2026!"));
    expect((await home.login(user.username, user.password)).status).toBe(200);
    // ...but home gets only the per-address budget of its own (an attacker behind the same NAT).
    for (let i = 1; i < PER_ACCOUNT; i++) expect((await home.login(user.username, `typo-${i}`)).status).toBe(401);
    expectThrottled(await home.login(user.username, user.password));
  });

  it("holds an address that fails across many accounts, and only that address", async () => {
    const [victim, other] = await Promise.all([newUser(), newUser()]);
    const sprayer = machine();
    // Password spraying: one or two tries per name stays under the per-account limit.
    for (let i = 0; i < PER_IP; i++) expect((await sprayer.login(`spray${randomInt(1e9)}`, "Summer2026!")).status).toBe(401);
    expectThrottled(await sprayer.login(victim.username, victim.password));
    expectThrottled(await sprayer.delegate(other.username, other.password));
    expect((await sprayer.callback(other.username, other.password)).error).toBe("rate_limited");
    // The accounts themselves are untouched: other machines sign in.
    expect((await machine().login(victim.username, victim.password)).status).toBe(200);
    expect((await machine().delegate(other.username, other.password)).status).toBe(200);
  });
});
