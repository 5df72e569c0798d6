// POST /api/seller/profile: a buyer opens a store in one step (issue #17).
import { describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createSeller, createUser, login, unique } from "../support/api";
import { postMultipart, tinyPng } from "../support/multipart";

type Settings = { id: string; companyName: string; country: string | null; description: string | null; logoUrl: string | null; contactEmail: string | null };
const me = (token: string) => api<{ user: { sellerProfileId: string | null } }>("/api/auth/me", { token });

async function freshBuyer() {
  const user = await createUser("BUYER");
  return { user, token: await login(user.username, user.password) };
}

describe("POST /api/seller/profile", () => {
  it("opens a public store for a buyer, once; the logo can be uploaded after", async () => {
    const { user, token } = await freshBuyer();
    expect((await me(token)).body.user.sellerProfileId).toBeNull();
    const name = `Open ${unique()}`;
    const res = await api<{ settings: Settings }>("/api/seller/profile", {
      token,
      json: { companyName: `  ${name} `, country: "Kenya", description: "Coffee and tea" },
    });
    expect(res.status).toBe(201);
    expect(res.body.settings).toMatchObject({ companyName: name, country: "Kenya", description: "Coffee and tea", logoUrl: null, contactEmail: user.email });
    const storeId = res.body.settings.id;
    expect((await me(token)).body.user.sellerProfileId).toBe(storeId);

    // The store acts at once: its settings, a logo, and the public directory.
    const upload = await postMultipart(`${baseUrl()}/api/upload`, token, [
      { name: "type", value: "logo" },
      { name: "file", filename: "logo.png", data: tinyPng(), contentType: "image/png" },
    ]);
    expect(upload.status).toBe(201);
    const settings = await api<{ settings: Settings }>("/api/seller/settings", { token });
    expect(settings.body.settings.logoUrl).toBe(upload.body.url);
    const listed = await api<{ sellers: { id: string; logoUrl: string | null; productCount: number }[] }>(`/api/sellers?q=${encodeURIComponent(name)}`);
    expect(listed.body.sellers).toEqual([expect.objectContaining({ id: storeId, logoUrl: upload.body.url, productCount: 0 })]);

    const again = await api("/api/seller/profile", { token, json: { companyName: "Second store" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("conflict");
    expect((await api<{ settings: Settings }>("/api/seller/settings", { token })).body.settings.companyName).toBe(name);
  });

  it("takes a logo uploaded before, and refuses a registered seller's second store", async () => {
    const { token } = await freshBuyer();
    const res = await api<{ settings: Settings }>("/api/seller/profile", { token, json: { companyName: "With logo", logoUrl: "/uploads/logo/x.png" } });
    expect(res.status).toBe(201);
    expect(res.body.settings.logoUrl).toBe("/uploads/logo/x.png");
    const seller = await createSeller();
    const dup = await api("/api/seller/profile", { token: seller.token, json: { companyName: "Another" } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
  });

  it("answers bad input with 400 naming the field and writes nothing", async () => {
    const { token } = await freshBuyer();
    const cases: { body: string; path?: string }[] = [
      { body: "{not json" },
      { body: "" },
      { body: JSON.stringify([1]) },
      { body: JSON.stringify({}), path: "companyName" },
      { body: JSON.stringify({ companyName: "   " }), path: "companyName" },
      { body: JSON.stringify({ companyName: "x".repeat(201) }), path: "companyName" },
      { body: JSON.stringify({ companyName: 42 }), path: "companyName" },
      { body: JSON.stringify({ companyName: "Ok", logoUrl: "https://evil.example/x.png" }), path: "logoUrl" },
      { body: JSON.stringify({ companyName: "Ok", logoUrl: "/uploads/../../etc/passwd x" }), path: "logoUrl" },
      { body: JSON.stringify({ companyName: "Ok", country: "c".repeat(101) }), path: "country" },
    ];
    for (const c of cases) {
      const res = await api("/api/seller/profile", { method: "POST", token, body: c.body, headers: { "content-type": "application/json" } });
      expect(res.status, c.body).toBe(400);
      expect(res.body.code, c.body).toBe("validation_failed");
      if (c.path)
        expect(
          (res.body.errors as { path: string }[]).map((e) => e.path),
          c.body,
        ).toContain(c.path);
    }
    expect((await me(token)).body.user.sellerProfileId).toBeNull();
  });

  it("is for signed-in people only: anonymous 401, AI accounts 404", async () => {
    const anon = await api("/api/seller/profile", { json: { companyName: "Nobody" } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe("unauthenticated");
    const { aiBuyer, aiPassword } = await createGuardianWithAi();
    const ai = await api("/api/seller/profile", { token: await login(aiBuyer.username, aiPassword), json: { companyName: "Robot" } });
    expect(ai.status).toBe(404);
  });
});
