// A small HTTP client for integration tests, and factories that make unique accounts per test.
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { checkResponse } from "./response-check";

let baseOverride: string | undefined;
/** The server the helpers talk to: the shared one, or a test file's own (`useServer`). */
export const baseUrl = () => baseOverride ?? inject("baseUrl");
/** Point every helper of this test file at another server (a file's own, see own-server.ts). */
export const useServer = (url: string | undefined) => {
  baseOverride = url;
};

export type ApiResult<T = Record<string, unknown>> = { status: number; body: T; headers: Headers; text: string };

export async function api<T = Record<string, unknown>>(
  path: string,
  init: { method?: string; json?: unknown; body?: string; token?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | undefined = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] ??= "application/json";
  }
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.cookie = init.cookie;
  const method = init.method ?? (body !== undefined ? "POST" : "GET");
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  // Every answer is held to the published OpenAPI description (tests/support/response-check.ts);
  // 502/504 come from a proxy in front (the scale test's nginx), never from the app.
  if (res.status !== 502 && res.status !== 504)
    await checkResponse(baseUrl(), method, new URL(path, "http://x").pathname, res.status, res.headers.get("content-type"), text);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

export const unique = (prefix = "u") => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

export type TestUser = { id: string; username: string; email: string; password: string; role: string };

export async function createUser(role: "BUYER" | "SELLER" = "BUYER", extra: Record<string, unknown> = {}): Promise<TestUser> {
  const username = unique(role === "SELLER" ? "s_" : "b_");
  const password = `pw-${randomBytes(6).toString("hex")}`;
  const email = `${username}@example.test`;
  const res = await api<{ user: TestUser }>("/api/accounts/create", { json: { email, username, password, role, ...extra } });
  if (res.status !== 201) throw new Error(`createUser failed: ${res.status} ${res.text}`);
  return { ...res.body.user, password };
}

export async function login(identifier: string, password: string): Promise<string> {
  const res = await api<{ token: string }>("/api/auth/login", { json: { email: identifier, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body.token;
}

/** A guardian (seller with a store) and both of its AI accounts. */
export async function createGuardianWithAi() {
  const guardian = await createUser("SELLER", { companyName: "Guardian Co" });
  const token = await login(guardian.username, guardian.password);
  const password = `ai-${randomBytes(6).toString("hex")}`;
  const accounts: Record<string, { aiUserId: string; username: string }> = {};
  for (const role of ["AI_BUYER", "AI_SELLER"] as const) {
    const res = await api<{ account: { aiUserId: string; username: string } }>("/api/ai/accounts", { token, json: { role, password } });
    if (res.status !== 201) throw new Error(`AI account failed: ${res.status} ${res.text}`);
    accounts[role] = res.body.account;
  }
  return { guardian, guardianToken: token, aiPassword: password, aiBuyer: accounts.AI_BUYER!, aiSeller: accounts.AI_SELLER! };
}

/** NextAuth's CSRF round trip, then the credentials callback; returns the cookies it set. */
export async function credentialsSignIn(identifier: string, password: string, extraCookie = "", callbackUrl = "/") {
  const csrfRes = await fetch(`${baseUrl()}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const form = new URLSearchParams({ csrfToken, email: identifier, password, callbackUrl, json: "true" });
  const res = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: [csrfCookie, extraCookie].filter(Boolean).join("; ") },
    body: form.toString(),
    redirect: "manual",
  });
  const setCookies = res.headers.getSetCookie();
  const session = setCookies.find((c) => c.startsWith("next-auth.session-token="));
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json().catch(() => null)) as { url?: string } | null,
    sessionCookie: session?.split(";")[0] ?? null,
  };
}

export const adminToken = () => login("test_admin", "test-admin-password");

let categoryCache: { id: string; slug: string; parentId: string | null }[] | undefined;
/** A leaf category and its parent (from the seeded reference tree). */
export async function someCategory(index = 0) {
  categoryCache ??= (await api<{ categories: { id: string; slug: string; parentId: string | null }[] }>("/api/categories")).body.categories;
  const leaves = categoryCache.filter((c) => c.parentId);
  const leaf = leaves[index % leaves.length]!;
  return { leaf, parent: categoryCache.find((c) => c.id === leaf.parentId)! };
}

export async function createSeller() {
  const user = await createUser("SELLER", { companyName: `Store ${unique()}` });
  const token = await login(user.username, user.password);
  const me = await api<{ user: { sellerProfileId: string } }>("/api/auth/me", { token });
  return { user, token, storeId: me.body.user.sellerProfileId };
}

export type ProductBody = {
  title?: string;
  price?: number;
  currency?: string;
  category?: string;
  moq?: number;
  keywords?: string[];
  images?: string[];
  description?: string;
  boothId?: string;
};

export async function createProduct(token: string, body: ProductBody = {}) {
  const { leaf } = await someCategory();
  const res = await api<{ product: { id: string; seller: { id: string } } & Record<string, unknown> }>("/api/products", {
    token,
    json: { title: `Product ${unique()}`, price: 10, currency: "USD", category: leaf.id, moq: 1, ...body },
  });
  if (res.status !== 201) throw new Error(`createProduct: ${res.status} ${res.text}`);
  return res.body.product;
}

/** Contract 9.3: lists and searches show a committed change within this long. */
export const CATALOG_WINDOW_MS = 1_000;

/** Waits until a list request sent now must show every change committed before `since`. */
export async function catalogWindowAfter(since: number): Promise<void> {
  const wait = since + CATALOG_WINDOW_MS - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
