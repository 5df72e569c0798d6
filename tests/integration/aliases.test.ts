// Paths without /api answer as their /api twins for API requests (contract 1); browsers asking for
// HTML still get the pages.
import { describe, expect, it } from "vitest";
import { api, createProduct, createSeller, createUser, login, unique } from "../support/api";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("/api-less aliases", () => {
  it("POST /auth/login with a JSON body is the login endpoint", async () => {
    const user = await createUser("BUYER");
    const res = await api<{ token: string; tokenType: string }>("/auth/login", { json: { email: user.username, password: user.password } });
    expect(res.status).toBe(200);
    expect(res.body.tokenType).toBe("Bearer");
    expect(res.headers.get("ratelimit-policy")).toBeTruthy();
    const wrong = await api<{ code: string }>("/auth/login", { json: { email: user.username, password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("content-type")).toContain("application/problem+json");
  });

  it("GET /products and /products/search with Accept: application/json answer JSON with the query applied", async () => {
    const seller = await createSeller();
    const keyword = unique("aliaskw");
    const product = await createProduct(seller.token, { keywords: [keyword] });
    const list = await api<{ products: { id: string }[] }>(`/products?keyword=${keyword}`, { headers: { accept: "application/json" } });
    expect(list.status).toBe(200);
    expect(list.body.products.map((p) => p.id)).toEqual([product.id]);
    const search = await api<{ products: { id: string }[]; facets: unknown }>(`/products/search?q=${keyword}`, {
      headers: { accept: "application/json, text/plain, */*" },
    });
    expect(search.body.products.map((p) => p.id)).toEqual([product.id]);
    expect(search.body.facets).toBeDefined();
    const detail = await api<{ product: { id: string } }>(`/products/${product.id}`, { headers: { accept: "application/json" } });
    expect(detail.body.product.id).toBe(product.id);
  });

  it("keeps method, headers and body: an authorized POST, PUT and Idempotency-Key replay", async () => {
    const buyer = await createUser("BUYER");
    const token = await login(buyer.username, buyer.password);
    const body = { title: `Need ${unique()}`, description: "500 units", budget: 1000, currency: "USD" };
    const created = await api<{ requirement: { id: string; title: string } }>("/buyer/requirements", {
      token,
      json: body,
      headers: { "idempotency-key": unique("k") },
    });
    expect(created.status).toBe(201);
    expect(created.body.requirement.title).toBe(body.title);
    const key = unique("k");
    const first = await api<{ requirement: { id: string } }>("/buyer/requirements", { token, json: body, headers: { "idempotency-key": key } });
    const replay = await api<{ requirement: { id: string } }>("/buyer/requirements", { token, json: body, headers: { "idempotency-key": key } });
    expect(replay.body.requirement.id).toBe(first.body.requirement.id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    // Authorization alone (no Accept, no body) is enough to be an API request.
    const mine = await api<{ requirements: { id: string }[] }>("/buyer/requirements", { token });
    expect(mine.status).toBe(200);
    expect(mine.body.requirements.map((r) => r.id)).toContain(first.body.requirement.id);

    const seller = await createSeller();
    const product = await createProduct(seller.token);
    const updated = await api<{ product: { title: string } }>(`/products/${product.id}`, {
      method: "PUT",
      token: seller.token,
      json: { title: "Renamed via alias" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.product.title).toBe("Renamed via alias");
  });

  it("still serves pages to browsers asking for HTML", async () => {
    const page = await api("/search", { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const seller = await createSeller();
    const product = await createProduct(seller.token, { title: `Lamp ${unique()}` });
    const productPage = await api(`/products/${product.id}`, { headers: { accept: BROWSER_ACCEPT } });
    expect(productPage.status).toBe(200);
    expect(productPage.headers.get("content-type")).toContain("text/html");
    expect(productPage.text).toContain("<html");
    // Paths with no /api twin are never rewritten, whatever the client accepts.
    const home = await api("/search", { headers: { accept: "application/json" } });
    expect(home.headers.get("content-type")).toContain("text/html");
  });
});
