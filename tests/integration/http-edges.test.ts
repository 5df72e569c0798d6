// HTTP edges an agent developer meets (issue #16, contract 9.5 and 1): 405 problem+json with
// `Allow`, `WWW-Authenticate` on every 401, the credentials callback answering API clients in
// problem+json (the form keeps NextAuth's answers), `Accept: */*` on aliased paths, /products for browsers.
import { describe, expect, it } from "vitest";
import { api, baseUrl, createProduct, createSeller, createUser, credentialsSignIn, unique } from "../support/api";

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

async function csrf(): Promise<{ csrfToken: string; cookie: string }> {
  const res = await fetch(`${baseUrl()}/api/auth/csrf`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return {
    csrfToken,
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

const sessionCookie = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));

describe("405", () => {
  it("answers problem+json method_not_allowed with Allow, on direct and parameterised paths and /mcp", async () => {
    const seller = await createSeller();
    const product = await createProduct(seller.token);
    for (const [method, path, allow] of [
      ["DELETE", "/api/products", "GET, HEAD, OPTIONS, POST"],
      ["PATCH", "/api/auth/login", "OPTIONS, POST"],
      ["POST", `/api/products/${product.id}`, "DELETE, GET, HEAD, OPTIONS, PATCH, PUT"],
      ["PUT", "/mcp", "DELETE, GET, HEAD, OPTIONS, POST"],
    ] as const) {
      const res = await fetch(`${baseUrl()}${path}`, { method, headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
      const body = (await res.json()) as { code: string; status: number };
      expect(body).toMatchObject({ code: "method_not_allowed", status: 405 });
    }
    // The methods a path has still answer, and an unknown path is still 404.
    expect((await api("/api/products")).status).toBe(200);
    expect((await fetch(`${baseUrl()}/api/no-such-thing`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("401", () => {
  it("carries WWW-Authenticate: Bearer from the wrapper, a bad token and /mcp", async () => {
    const answers = [
      await api("/api/keys"),
      await api("/api/keys", { token: "not-a-token" }),
      await api("/api/auth/login", { json: { email: unique("nobody"), password: "wrong-password" } }),
      await api("/mcp", { json: { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers: { accept: "application/json, text/event-stream" } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    }
  });
});

describe("credentials callback for API clients", () => {
  it("without the CSRF cookie is 403 csrf_failed and sets no session", async () => {
    const user = await createUser();
    const { csrfToken } = await csrf();
    const res = await api<{ code: string }>("/api/auth/callback/credentials", { json: { csrfToken, email: user.username, password: user.password } });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.code).toBe("csrf_failed");
    expect(sessionCookie(res)).toBeUndefined();
  });

  it("a wrong password is 401 unauthenticated (as /api/auth/login), a right one sets the session", async () => {
    const user = await createUser();
    const { csrfToken, cookie } = await csrf();
    const wrong = await api<{ code: string }>("/api/auth/callback/credentials", {
      cookie,
      json: { csrfToken, email: user.username, password: "wrong-password" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthenticated");
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    const viaLogin = await api<{ code: string; detail: string }>("/api/auth/login", { json: { email: user.username, password: "wrong-password" } });
    expect(wrong.body).toMatchObject({ code: viaLogin.body.code, detail: viaLogin.body.detail });
    // A form body that asks for JSON by Accept is an API client too.
    const form = new URLSearchParams({ csrfToken, email: user.username, password: user.password });
    const ok = await api<{ url: string }>("/api/auth/callback/credentials", {
      cookie,
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    });
    expect(ok.status).toBe(200);
    expect(sessionCookie(ok)).toBeTruthy();
  });

  it("malformed JSON is 400 validation_failed, not a 500", async () => {
    const { cookie } = await csrf();
    const res = await api<{ code: string }>("/api/auth/callback/credentials", {
      cookie,
      body: '{"email": "x", ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
  });

  it("the site's form (form body, Accept */*) keeps NextAuth's answers", async () => {
    const user = await createUser();
    const wrong = await credentialsSignIn(user.username, "wrong-password");
    expect(wrong.status).toBe(401);
    expect(new URL(wrong.body!.url!).searchParams.get("error")).toBe("CredentialsSignin");
    const ok = await credentialsSignIn(user.username, user.password);
    expect(ok.status).toBe(200);
    expect(ok.sessionCookie).toBeTruthy();
  });
});

describe("aliases for clients that name no HTML", () => {
  it("curl's and python-requests' Accept: */* (and none) on /products get the API's JSON", async () => {
    const seller = await createSeller();
    const keyword = unique("edgekw");
    const product = await createProduct(seller.token, { keywords: [keyword] });
    for (const accept of ["*/*", ""]) {
      const res = await api<{ products: { id: string }[] }>(`/products?keyword=${keyword}`, { headers: accept ? { accept } : {} });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body.products.map((p) => p.id)).toEqual([product.id]);
    }
  });

  it("a JSON POST to /auth/login with Accept: */* reaches the API", async () => {
    const user = await createUser();
    const res = await api<{ tokenType: string }>("/auth/login", { json: { email: user.username, password: user.password }, headers: { accept: "*/*" } });
    expect(res.status).toBe(200);
    expect(res.body.tokenType).toBe("Bearer");
  });

  it("a browser on /products (and /<locale>/products) gets the catalog, with its query kept", async () => {
    const res = await api("/products?page=2", { headers: { accept: BROWSER } });
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location")!, baseUrl()).pathname + new URL(res.headers.get("location")!, baseUrl()).search).toBe("/search?page=2");
    const zh = await api("/zh/products", { headers: { accept: BROWSER } });
    expect(zh.status).toBe(307);
    expect(new URL(zh.headers.get("location")!, baseUrl()).pathname).toBe("/zh/search");
    const page = await fetch(`${baseUrl()}/products`, { headers: { accept: BROWSER } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
  });
});
