import { describe, expect, it } from "vitest";
import { adminToken, api, createGuardianWithAi, createProduct, createSeller, login, unique } from "../support/api";

type Booth = { id: string; isPublished: boolean; keywords?: string[]; exhibitionId: string | null; name: string; description: string | null };

describe("booths and exhibitions", () => {
  it("creates a draft, hides it from others, publishes it (human owner) into its exhibition", async () => {
    const admin = await adminToken();
    const name = `Fair ${unique()}`;
    const now = Date.now();
    const ex = await api<{ exhibition: { id: string; slug: string; status: string } }>("/api/exhibitions", {
      token: admin,
      json: { name, description: "Test fair", startsAt: new Date(now - 3600_000).toISOString(), endsAt: new Date(now + 86400_000).toISOString() },
    });
    expect(ex.status).toBe(201);
    expect(ex.body.exhibition.status).toBe("ongoing");

    const { token } = await createSeller();
    const created = await api<{ booth: Booth }>("/api/booths", {
      token,
      json: {
        name: "Hall A booth",
        exhibitionName: name.toUpperCase(),
        keywords: ["lamp", "灯"],
        documents: [{ url: "/uploads/c.pdf", name: "Catalog.pdf", type: "application/pdf", size: 1234 }],
        theme: "modern",
        colorScheme: "#1d4ed8",
      },
    });
    expect(created.status).toBe(201);
    const booth = created.body.booth;
    expect(booth).toMatchObject({ isPublished: false, exhibitionId: ex.body.exhibition.id, keywords: ["lamp", "灯"] });

    const other = await createSeller();
    expect((await api(`/api/booths/${booth.id}`)).status).toBe(404);
    expect((await api(`/api/booths/${booth.id}`, { token: other.token })).status).toBe(404);
    expect((await api<{ booth: Booth }>(`/api/booths/${booth.id}`, { token })).body.booth.keywords).toEqual(["lamp", "灯"]);
    expect((await api(`/api/booths/${booth.id}`, { method: "PUT", token: other.token, json: { description: "hijack" } })).status).toBe(404);

    const decorated = await api<{ booth: Booth }>(`/api/booths/${booth.id}`, {
      method: "PUT",
      token,
      json: { description: "Welcome", bannerUrl: "/uploads/banner.png" },
    });
    expect(decorated.body.booth.description).toBe("Welcome");
    const sneaky = await api(`/api/booths/${booth.id}`, { method: "PUT", token, json: { isPublished: true } });
    expect(sneaky.status).toBe(400);

    const published = await api<{ booth: Booth }>("/api/booths", { method: "PUT", token, json: { boothId: booth.id, isPublished: true } });
    expect(published.body.booth.isPublished).toBe(true);
    const publicView = await api<{ booth: Booth }>(`/api/booths/${booth.id}`);
    expect(publicView.status).toBe(200);
    expect(publicView.body.booth.keywords).toBeUndefined();
    const exhibition = await api<{ exhibition: { booths: { id: string }[] } }>(`/api/exhibitions/${ex.body.exhibition.slug}`);
    expect(exhibition.body.exhibition.booths.map((b) => b.id)).toContain(booth.id);
    const listed = await api<{ booths: { id: string }[] }>(`/api/public/booths?exhibitionId=${ex.body.exhibition.id}`);
    expect(listed.body.booths.map((b) => b.id)).toEqual([booth.id]);
  });

  it("refuses 51 booth keywords and non-admin exhibitions", async () => {
    const { token } = await createSeller();
    const res = await api("/api/booths", { token, json: { name: "B", keywords: Array.from({ length: 51 }, (_, i) => `k${i}`) } });
    expect(res.status).toBe(400);
    const ex = await api("/api/exhibitions", {
      token,
      json: { name: "Mine", startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 1000).toISOString() },
    });
    expect(ex.status).toBe(403);
  });

  it("holds at most 100 products per booth (409 booth_full)", async () => {
    const { token } = await createSeller();
    const booth = (await api<{ booth: Booth }>("/api/booths", { token, json: { name: "Full booth" } })).body.booth;
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) ids.push((await createProduct(token, { title: `Item ${i}` })).id);
    for (const id of ids.slice(0, 100)) {
      const r = await api(`/api/products/${id}`, { method: "PATCH", token, json: { boothId: booth.id } });
      expect(r.status).toBe(200);
    }
    const full = await api(`/api/products/${ids[100]}`, { method: "PATCH", token, json: { boothId: booth.id } });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe("booth_full");
    // Re-assigning a product already in the booth is not a 101st.
    expect((await api(`/api/products/${ids[0]}`, { method: "PATCH", token, json: { boothId: booth.id } })).status).toBe(200);
    const other = await createSeller();
    const foreign = await createProduct(other.token);
    expect((await api(`/api/products/${foreign.id}`, { method: "PATCH", token: other.token, json: { boothId: booth.id } })).status).toBe(404);
  }, 120_000);

  it("lets an AI seller create and decorate booths of its guardian's store, never publish", async () => {
    const { aiSeller, aiPassword, guardianToken } = await createGuardianWithAi();
    const aiToken = await login(aiSeller.username, aiPassword);
    const booth = (await api<{ booth: Booth & { sellerId: string } }>("/api/booths", { token: aiToken, json: { name: "AI booth" } })).body.booth;
    const store = (await api<{ user: { sellerProfileId: string } }>("/api/auth/me", { token: guardianToken })).body.user.sellerProfileId;
    expect(booth.sellerId).toBe(store);
    expect((await api(`/api/booths/${booth.id}`, { method: "PUT", token: aiToken, json: { description: "by AI" } })).status).toBe(200);
    expect((await api("/api/booths", { method: "PUT", token: aiToken, json: { boothId: booth.id, isPublished: true } })).status).toBe(404);
    expect(
      (await api<{ booth: Booth }>("/api/booths", { method: "PUT", token: guardianToken, json: { boothId: booth.id, isPublished: true } })).body.booth
        .isPublished,
    ).toBe(true);
  });
});

describe("public reads", () => {
  it("serves categories (names per locale), the tree, exhibitions, stores and sellers", async () => {
    const cats = await api<{ categories: { id: string; name: string; names: Record<string, string>; parentId: string | null }[] }>("/api/categories?locale=zh");
    expect(cats.body.categories.length).toBeGreaterThanOrEqual(50);
    // The seeded reference tree (service-level tests may add categories of their own).
    const c = cats.body.categories.find((x) => x.names.zh)!;
    expect(c.name).toBe(c.names.zh);
    expect(c.name).not.toBe(c.names.en);
    const tree = await api<{ categories: { children: unknown[] }[] }>("/api/categories/tree");
    expect(tree.body.categories.length).toBeGreaterThan(5);
    expect(tree.body.categories.every((t) => t.children.length > 0)).toBe(true);
    const roots = await api<{ categories: unknown[] }>("/api/categories?parentId=root");
    expect(roots.body.categories).toHaveLength(tree.body.categories.length);

    const ex = await api<{ exhibitions: unknown[]; page: number; limit: number; total: number }>("/api/exhibitions?limit=5");
    expect(ex.body).toMatchObject({ page: 1, limit: 5 });
    expect((await api("/api/exhibitions?limit=101")).status).toBe(400);
    expect((await api("/api/exhibitions/no-such-fair")).status).toBe(404);

    const { storeId } = await createSeller();
    const store = await api<{ store: { id: string; productCount: number } }>(`/api/stores/${storeId}`);
    expect(store.body.store).toMatchObject({ id: storeId, productCount: 0 });
    expect((await api("/api/stores/nope")).status).toBe(404);
    const sellers = await api<{ sellers: { id: string }[]; total: number }>("/api/sellers/public?limit=100");
    expect(sellers.body.total).toBeGreaterThan(0);
  });
});
