import { describe, expect, it } from "vitest";
import { api, createProduct, createSeller, someCategory } from "../support/api";

type Page = {
  products: { id: string; price: number; title: string }[];
  total: number;
  page: number;
  limit: number;
  facets?: { categories: { id: string; count: number }[] };
};

describe("multilingual search", () => {
  it("finds products by keywords in any language, accent-, case- and width-insensitively, CJK substrings included", async () => {
    const { token, storeId } = await createSeller();
    const headset = await createProduct(token, {
      title: "Wireless headset BT-500",
      price: 25,
      keywords: ["蓝牙耳机", "سماعة لاسلكية", "Kopfhörer", "ワイヤレスイヤホン", "무선 헤드셋", "наушники", "auriculares"],
    });
    const cable = await createProduct(token, { title: "USB-C cable", price: 2, keywords: ["数据线", "Kabel"] });
    const find = async (q: string) => (await api<Page>(`/api/products/search?q=${encodeURIComponent(q)}&sellerId=${storeId}`)).body.products.map((p) => p.id);
    for (const q of [
      "蓝牙耳机",
      "耳机",
      "耳",
      "سماعة",
      "Kopfhörer",
      "kopfhorer",
      "KOPFHÖRER",
      "イヤホン",
      "헤드셋",
      "наушники",
      "wireless",
      "bt-500",
      "ＢＴ",
      "headset wireless",
    ]) {
      expect(await find(q), q).toEqual([headset.id]);
    }
    expect(await find("数据")).toEqual([cable.id]);
    // Latin terms match at the start of a word: "led" is not inside "peeled".
    const bulb = await createProduct(token, { title: "LED bulb E27", keywords: ["LED灯泡"] });
    await createProduct(token, { title: "Peeled shrimp", keywords: ["shrimp"] });
    expect(await find("led")).toEqual([bulb.id]);
    expect(await find("灯泡")).toEqual([bulb.id]);
    expect(await find("toaster")).toEqual([]);
    const viaList = await api<Page>(`/api/products?keyword=${encodeURIComponent("蓝牙")}&sellerId=${storeId}`);
    expect(viaList.body.products.map((p) => p.id)).toEqual([headset.id]);
  });

  it("filters by price, category with descendants, MOQ and OEM; sorts; pages; counts facets", async () => {
    const { token, storeId } = await createSeller();
    const a = await someCategory(0);
    const b = await someCategory(9);
    const ids: Record<string, string> = {};
    for (const [name, price, cat, moq] of [
      ["one", 5, a.leaf.id, 1],
      ["two", 15, a.leaf.id, 50],
      ["three", 25, b.leaf.id, 500],
    ] as const) {
      ids[name] = (await createProduct(token, { title: `Filter ${name}`, price, category: cat, moq })).id;
    }
    const q = (s: string) => api<Page>(`/api/products/search?sellerId=${storeId}&${s}`);
    expect((await q("minPrice=10&maxPrice=20")).body.products.map((p) => p.id)).toEqual([ids.two]);
    expect((await q(`category=${a.parent.id}`)).body.total).toBe(a.parent.id === b.parent.id ? 3 : 2);
    expect((await q(`category=${a.leaf.slug}`)).body.total).toBe(2);
    expect((await q("maxMoq=50")).body.total).toBe(2);
    expect((await q("sort=price_desc")).body.products.map((p) => p.price)).toEqual([25, 15, 5]);
    expect((await q("sort=price_asc&limit=2&page=2")).body).toMatchObject({ page: 2, limit: 2, total: 3, products: [expect.objectContaining({ price: 25 })] });
    // The total of a full page is counted; of a last page, read off it; past the end, counted again.
    expect((await q("sort=price_asc&limit=2")).body.total).toBe(3);
    expect((await q("limit=3")).body.total).toBe(3);
    expect((await q("limit=2&page=3")).body).toMatchObject({ products: [], total: 3 });
    expect((await q("minPrice=1000")).body).toMatchObject({ products: [], total: 0 });
    const facets = (await q("q=filter")).body.facets!.categories;
    expect(facets.find((f) => f.id === a.leaf.id)?.count).toBe(a.leaf.id === b.leaf.id ? 3 : 2);
    expect((await q("limit=100")).status).toBe(200);
    expect((await q("limit=101")).status).toBe(400);
    expect((await q("minPrice=abc")).status).toBe(400);
    expect((await q("sort=cheapest")).status).toBe(400);
    // Contract 9.3: no page starts past the 10,000th result; the answer says how exact its total is.
    expect((await q("page=500&limit=20")).body).toMatchObject({ products: [], totalRelation: "eq" });
    const past = await api<{ code: string; errors: { path: string }[] }>(`/api/products/search?sellerId=${storeId}&page=501&limit=20`);
    expect(past.status).toBe(400);
    expect(past.body.code).toBe("validation_failed");
    expect(past.body.errors.map((e) => e.path)).toContain("page");
  });
});
