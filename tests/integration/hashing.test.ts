import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, credentialsSignIn, unique } from "../support/api";

// bcrypt runs in worker threads: while sign-ins hash, the event loop keeps answering other
// requests. A server hashing on its main thread fails this: health checks wait behind hashes.
const password = "hashing-test-password";
let username = "";

beforeAll(async () => {
  username = unique("hash_");
  const res = await api("/api/accounts/create", { json: { email: `${username}@example.test`, username, password, role: "BUYER" } });
  expect(res.status).toBe(201);
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
