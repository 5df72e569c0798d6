import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createUser, credentialsSignIn, unique, useServer } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

// Hashing at the real cost, on a server of this file's own (the other tests' servers hash at a test run's low cost:
// tests/support/server.ts). bcrypt runs in worker threads: while sign-ins hash, the event loop keeps answering other
// requests; a server hashing on its main thread fails this: health checks wait behind hashes. And an unknown name is
// compared against a dummy hash, so its failed sign-in takes as long as a wrong password.
const password = "hashing-test-password";
let username = "";
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ BCRYPT_COST: "10" });
  useServer(server.url);
  username = unique("hash_");
  const res = await api("/api/accounts/create", { json: { email: `${username}@example.test`, username, password, role: "BUYER" } });
  expect(res.status).toBe(201);
}, 120_000);

afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

async function tokenLogin(): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: username, password }),
  });
  await res.text();
  return res.status;
}

/** NextAuth's credentials callback (served by Next's bundled copy of the sign-in code). */
async function callbackLogin(): Promise<number> {
  return (await credentialsSignIn(username, password)).sessionCookie ? 200 : 401;
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await f();
  return [v, performance.now() - t0];
}

/** Start `n` sign-ins at once and time health checks, one after another, until they are done. */
async function healthDuringLogins(login: () => Promise<number>, n: number) {
  let pending = n;
  const logins = Array.from({ length: n }, () => login().finally(() => pending--));
  const health: number[] = [];
  while (pending > 0) {
    const [status, ms] = await timed(async () => (await fetch(`${baseUrl()}/api/health`)).status);
    expect(status).toBe(200);
    if (pending > 0) health.push(ms);
  }
  const statuses = await Promise.all(logins);
  health.sort((a, b) => a - b);
  return { statuses, health, median: health[Math.floor(health.length / 2)] ?? Infinity };
}

describe("password hashing off the event loop", () => {
  for (const [name, login] of [
    ["POST /api/auth/login (custom server's route table)", tokenLogin],
    ["NextAuth credentials callback (Next's bundle)", callbackLogin],
  ] as const) {
    it(`${name}: health checks answer while sign-ins hash`, async () => {
      const [status, one] = await timed(login);
      expect(status).toBe(200);
      const { statuses, health, median } = await healthDuringLogins(login, 6);
      expect(statuses).toEqual(Array(6).fill(200));
      // Six hashes on one worker take ~6 sign-in times: plenty of checks must fit in between,
      // and a typical one must not wait for a hash.
      expect(health.length).toBeGreaterThanOrEqual(6);
      expect(median, `health ms ${health.map(Math.round).join(",")}; one sign-in ${Math.round(one)} ms`).toBeLessThan(one / 5);
    }, 90_000);
  }
});

describe("failed sign-ins take as long", () => {
  it("takes about as long for an unknown name as for a wrong password (fastest of 20 each)", { timeout: 120_000 }, async () => {
    const user = await createUser();
    const timed = async (email: string) => {
      const t0 = performance.now();
      const res = await api("/api/auth/login", { json: { email, password: "not-the-password" } });
      expect(res.status).toBe(401);
      return performance.now() - t0;
    };
    // Warm-up (the dummy hash is computed once per process), then interleaved so load hits both.
    await timed(`ghost-warmup-${Date.now()}`);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 20; i++) {
      known.push(await timed(user.username));
      unknown.push(await timed(`ghost${Date.now()}${i}`));
    }
    // The fastest of each: a parallel test file's load lengthens some requests of either kind (a median moved by
    // 50 ms under it once), while a skipped comparison would take the whole bcrypt time off every unknown name.
    const [k, u] = [Math.min(...known), Math.min(...unknown)];
    // bcrypt dominates both (~50-100 ms at cost 10); a skipped comparison would show as a gap of
    // the whole bcrypt time. Tolerant of a loaded CI machine: within 35 % or 25 ms.
    expect(Math.abs(k - u), `known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`).toBeLessThan(Math.max(25, 0.35 * Math.max(k, u)));
    // At cost 10 a hash takes 50-100 ms here; at a test run's cost of 4 (~1 ms) nothing above could fail.
    expect(Math.min(k, u)).toBeGreaterThan(30);
  });
});
