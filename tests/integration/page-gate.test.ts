// The gate on web pages (contract 9.1): an AI account signed in to the site browses catalog pages
// only while its guardian allows product.browse; every view and every refusal is on its audit log.
import { describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createProduct, createSeller, credentialsSignIn } from "../support/api";

type Entry = { action: string; success: boolean; details: string };

describe("catalog pages for an AI account in a browser", () => {
  it("are refused with a translated 403 page while product.browse is off, and every view and refusal is audited", async () => {
    const g = await createGuardianWithAi();
    const seller = await createSeller();
    const product = await createProduct(seller.token, { title: "Gate lamp" });
    const signIn = await credentialsSignIn(g.aiBuyer.username, g.aiPassword);
    expect(signIn.sessionCookie).toBeTruthy();
    const page = (path: string) => fetch(`${baseUrl()}${path}`, { headers: { cookie: signIn.sessionCookie! }, redirect: "manual" });
    const setBrowse = (isAllowed: boolean) =>
      api("/api/ai/permissions", { method: "PUT", token: g.guardianToken, json: { aiUserId: g.aiBuyer.aiUserId, permission: "product.browse", isAllowed } });

    const allowed = await page(`/products/${product.id}`);
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("Gate lamp");

    expect((await setBrowse(false)).status).toBe(200);
    const paths = [`/products/${product.id}`, `/zh/products/${product.id}`, "/search?q=lamp", `/stores/${seller.storeId}`, "/ar/search"];
    for (const path of paths) {
      const res = await page(path);
      expect(res.status, path).toBe(403);
      const html = await res.text();
      expect(html).not.toContain("Gate lamp");
      if (path.startsWith("/zh/")) expect(html).toContain("此 AI 账户无权访问");
      if (path.startsWith("/ar/")) expect(html).toContain('dir="rtl"');
    }
    // A link's prefetch is refused too, but it is the browser's guess, not a view: not recorded.
    const prefetch = await fetch(`${baseUrl()}/search?q=prefetched`, {
      headers: { cookie: signIn.sessionCookie!, rsc: "1", "next-router-prefetch": "1" },
      redirect: "manual",
    });
    expect(prefetch.status).toBe(403);
    // Pages outside the catalog, and people, are not concerned.
    expect((await page("/")).status).toBe(200);
    const person = await fetch(`${baseUrl()}/products/${product.id}`);
    expect(person.status).toBe(200);

    const logs = (
      await api<{ logs: Entry[] }>(`/api/ai/audit-logs?aiUserId=${g.aiBuyer.aiUserId}&action=product.browse&limit=50`, { token: g.guardianToken })
    ).body.logs.filter((l) => l.details.includes("page GET"));
    expect(logs.filter((l) => l.success).map((l) => l.details)).toEqual([`page GET /products/${product.id}`]);
    expect(
      logs
        .filter((l) => !l.success)
        .map((l) => l.details)
        .sort(),
    ).toEqual(paths.map((p) => `permission_denied: page GET ${p.split("?")[0]} -> 403`).sort());

    expect((await setBrowse(true)).status).toBe(200);
    expect((await page(`/products/${product.id}`)).status).toBe(200);
  });
});
