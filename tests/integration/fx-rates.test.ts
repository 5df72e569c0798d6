// Reference exchange rates and ISO 4217 currency fields (contract 9.2, issue #14 points 1-2): the
// public rates, the ADMIN's PUT (access, validation, history), convert() on the rates just set, and
// every currency field refusing a code outside the list over REST and MCP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { seedFxRates } from "@/lib/db/seed/fx-rates";
import { SEED_FX_DATE } from "@/lib/db/seed/fx-rates-data";
import { ApiError } from "@/lib/errors";
import { systemCtx } from "@/lib/gate/context";
import { convert, loadRates } from "@/lib/money/convert";
import { getFxRates, setFxRates } from "@/lib/services/money/fx-rates";
import { adminToken, api, createGuardianWithAi, createProduct, createSeller, createUser, login } from "../support/api";
import { testDb } from "../support/db";
import { createApiKey, mcpClient, toolJson } from "../support/mcp";

type Rates = { base: string; date: string; rates: Record<string, number>; dates: Record<string, string> };
type Problem = { code: string; errors?: { path: string; message: string }[] };

const today = () => new Date().toISOString().slice(0, 10);
const paths = (p: Problem) => (p.errors ?? []).map((e) => e.path);

describe("GET /api/fx-rates", () => {
  it("is public: base USD at 1, the seeded rates with their date", async () => {
    const res = await api<Rates>("/api/fx-rates");
    expect(res.status).toBe(200);
    expect(res.body.base).toBe("USD");
    expect(res.body.rates.USD).toBe(1);
    for (const code of ["EUR", "CNY", "JPY", "GBP", "IDR", "CHF"]) expect(res.body.rates[code], code).toBeGreaterThan(0);
    expect(res.body.dates.EUR).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.date >= SEED_FX_DATE).toBe(true);
  });
});

describe("PUT /api/admin/fx-rates", () => {
  let admin: string;
  beforeAll(async () => {
    admin = await adminToken();
  });

  it("is for administrators only: 401 anonymous, 403 for people and AI accounts", async () => {
    const body = { date: today(), rates: { MNT: 3400 } };
    expect((await api<Problem>("/api/admin/fx-rates", { method: "PUT", json: body })).status).toBe(401);
    const seller = await createSeller();
    const res = await api<Problem>("/api/admin/fx-rates", { method: "PUT", token: seller.token, json: body });
    expect([res.status, res.body.code]).toEqual([403, "forbidden"]);
    const g = await createGuardianWithAi();
    const ai = await login(g.aiSeller.username, g.aiPassword);
    expect((await api<Problem>("/api/admin/fx-rates", { method: "PUT", token: ai, json: body })).status).toBe(403);
    expect((await api<Rates>("/api/fx-rates")).body.rates.MNT).toBeUndefined();
  });

  it("refuses bad input with validation_failed naming the field", async () => {
    const bad: [unknown, string][] = [
      [{ date: today(), rates: { ZZZ: 2 } }, "rates.ZZZ"],
      [{ date: today(), rates: { XAU: 0.0004 } }, "rates.XAU"],
      [{ date: today(), rates: { eur: 0.9 } }, "rates.eur"],
      [{ date: today(), rates: { EUR: 0 } }, "rates.EUR"],
      [{ date: today(), rates: { EUR: "0.9" } }, "rates.EUR"],
      [{ date: today(), rates: { EUR: 0.123456789 } }, "rates.EUR"],
      [{ date: today(), rates: { USD: 2 } }, "rates.USD"],
      [{ date: "2026-02-30", rates: { EUR: 0.9 } }, "date"],
      [{ date: "2999-01-01", rates: { EUR: 0.9 } }, "date"],
      [{ rates: { EUR: 0.9 } }, "date"],
      [{ date: today(), rates: {} }, "rates"],
    ];
    for (const [json, path] of bad) {
      const res = await api<Problem>("/api/admin/fx-rates", { method: "PUT", token: admin, json });
      expect([res.status, res.body.code], JSON.stringify(json)).toEqual([400, "validation_failed"]);
      expect(paths(res.body), JSON.stringify(json)).toContain(path);
    }
  });

  it("sets a rate as of a date; it is served at once, others keep theirs, and a back-dated rate does not replace it", async () => {
    const before = await api<Rates>("/api/fx-rates");
    const res = await api<Rates>("/api/admin/fx-rates", { method: "PUT", token: admin, json: { date: today(), rates: { MNT: 3412.5 } } });
    expect(res.status).toBe(200);
    expect(res.body.rates.MNT).toBe(3412.5);
    expect(res.body.dates.MNT).toBe(today());
    const after = await api<Rates>("/api/fx-rates");
    expect(after.body.rates.MNT).toBe(3412.5);
    expect(after.body.rates.EUR).toBe(before.body.rates.EUR);
    await api("/api/admin/fx-rates", { method: "PUT", token: admin, json: { date: "2020-01-01", rates: { MNT: 9999 } } });
    expect((await api<Rates>("/api/fx-rates")).body.rates.MNT).toBe(3412.5);
  });
});

describe("convert() at the rates in the database", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await testDb());
    await seedFxRates(db);
  });
  afterAll(async () => {
    await close?.();
  });

  it("converts at the seeded rates, and at a newly set rate right after", async () => {
    expect(await convert(db, 100, "USD", "EUR")).toBe("96.05");
    expect(await convert(db, "1000.00", "EUR", "USD")).toBe("1041.10");
    const ctx = systemCtx(db, ANONYMOUS);
    await setFxRates(ctx, { date: today(), rates: { EUR: 0.5 } });
    expect(await convert(ctx, 100, "USD", "EUR")).toBe("50.00");
    expect(await convert(db, "0.01", "EUR", "USD")).toBe("0.02");
    // A back-dated rate is history, not the current rate.
    await setFxRates(ctx, { date: "2001-01-01", rates: { EUR: 2 } });
    expect(await convert(db, 100, "USD", "EUR")).toBe("50.00");
    expect((await getFxRates(db)).rates.EUR).toBe(0.5);
    // A later rate on the same day replaces it.
    await setFxRates(ctx, { date: today(), rates: { EUR: 0.75 } });
    expect(await convert(db, 100, "USD", "EUR")).toBe("75.00");
    expect((await loadRates(db, ["EUR", "CNY"])).get("CNY")).toBe("7.27903000");
  });

  it("refuses a currency without a rate as validation_failed naming the field", async () => {
    const err = await convert(db, 10, "KPW", "USD", "mandateCurrency").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("validation_failed");
    expect((err as ApiError).errors?.[0]?.path).toBe("mandateCurrency");
  });

  it("does not overwrite a set rate when the seed runs again, and fills only missing currencies", async () => {
    await setFxRates(systemCtx(db), { date: today(), rates: { CHF: 0.8 } });
    expect(await seedFxRates(db)).toBe(0);
    expect(await convert(db, 100, "USD", "CHF")).toBe("80.00");
  });
});

describe("every currency field refuses a code outside ISO 4217", () => {
  const refused = (res: { status: number; body: unknown }, path = "currency") => {
    expect(res.status).toBe(400);
    expect((res.body as Problem).code).toBe("validation_failed");
    expect(paths(res.body as Problem)).toContain(path);
  };

  it("over REST: products (create, update, list filter), inquiry quotes, requirements, tasks", async () => {
    const seller = await createSeller();
    const p = await createProduct(seller.token, { price: 100 });
    refused(await api("/api/products", { token: seller.token, json: { title: "x", price: 1, currency: "ABC", category: "c", moq: 1 } }));
    refused(await api(`/api/products/${p.id}`, { method: "PUT", token: seller.token, json: { currency: "ABC" } }));
    refused(await api(`/api/products/${p.id}`, { method: "PUT", token: seller.token, json: { price: 1, currency: "ZZZ" } }));
    refused(await api(`/api/products/${p.id}`, { method: "PUT", token: seller.token, json: { currency: "XAU" } }));
    refused(await api("/api/products?currency=ABC"));
    const still = await api<{ product: { currency: string; price: number } }>(`/api/products/${p.id}`);
    expect(still.body.product).toMatchObject({ currency: "USD", price: 100 });

    const buyerUser = await createUser("BUYER");
    const buyer = await login(buyerUser.username, buyerUser.password);
    const inq = await api<{ inquiry: { id: string } }>("/api/buyer/inquiries", { token: buyer, json: { productId: p.id, message: "Price for 500?" } });
    refused(
      await api(`/api/seller/inquiries/${inq.body.inquiry.id}/respond`, { token: seller.token, json: { message: "9 each", quotedPrice: 9, currency: "ABC" } }),
    );
    refused(await api("/api/buyer/requirements", { token: buyer, json: { title: "LED bulbs", budget: 500, currency: "ABC" } }));
    refused(await api("/api/marketplace/tasks", { token: buyer, json: { title: "Translate a catalog", reward: 50, currency: "ABC" } }));

    // A code in lower case is the same code (answered upper case).
    const ok = await api<{ product: { currency: string } }>(`/api/products/${p.id}`, { method: "PUT", token: seller.token, json: { currency: "eur" } });
    expect([ok.status, ok.body.product.currency]).toEqual([200, "EUR"]);
  });

  it("over MCP: update_product with ABC is a validation_failed tool error and changes nothing", async () => {
    const seller = await createSeller();
    const p = await createProduct(seller.token, { price: 250, currency: "EUR" });
    const key = await createApiKey(seller.token);
    const client = await mcpClient(key.secret);
    try {
      const result = await client.callTool({ name: "update_product", arguments: { productId: p.id, currency: "ABC" } });
      expect(result.isError).toBe(true);
      const problem = toolJson<Problem>(result);
      expect(problem.code).toBe("validation_failed");
      expect(paths(problem)).toContain("currency");
    } finally {
      await client.close();
    }
    const still = await api<{ product: { currency: string; price: number } }>(`/api/products/${p.id}`);
    expect(still.body.product).toMatchObject({ currency: "EUR", price: 250 });
  });
});
