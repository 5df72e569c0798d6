// ISO 4217 codes (contract 9.2) and exact conversion at reference rates.
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { CURRENCY_CODES, CURRENCY_OPTIONS, isCurrencyCode } from "@/lib/money/currencies";
import { convertCents, convertWith, formatCents, formatRate, rateUnits, toCents } from "@/lib/money/decimal";
import { Currency, SetFxRatesBody } from "@/lib/schemas/money";
import { CreateProductBody, ProductListQuery, UpdateProductBody } from "@/lib/schemas/products";
import { CreateRequirementBody, RespondInquiryBody } from "@/lib/schemas/trade";
import { CreateTaskBody } from "@/lib/schemas/community";
import { SEED_FX_RATES } from "@/lib/db/seed/fx-rates-data";

describe("the currency list", () => {
  it("is exactly what Intl lists on this Node (a Node/ICU upgrade that changes it must update lib/money/currencies.ts)", () => {
    expect([...CURRENCY_CODES]).toEqual(Intl.supportedValuesOf("currency"));
  });

  it("refuses ZZZ, XAU, test codes and non-codes; accepts real codes in any case", () => {
    for (const bad of ["ZZZ", "XAU", "XXX", "XTS", "ABC", "US", "USDX", "", "usd1", "€"]) {
      expect(isCurrencyCode(bad)).toBe(false);
      expect(Currency.safeParse(bad).success).toBe(false);
    }
    expect(Currency.parse(" eur ")).toBe("EUR");
    expect(Currency.parse("IDR")).toBe("IDR");
  });

  it("offers every code once in forms, the common ones first", () => {
    expect(new Set(CURRENCY_OPTIONS).size).toBe(CURRENCY_CODES.length);
    expect(CURRENCY_OPTIONS[0]).toBe("USD");
  });

  it("has a seed rate only for listed currencies", () => {
    for (const code of Object.keys(SEED_FX_RATES)) expect(isCurrencyCode(code), code).toBe(true);
  });
});

describe("every currency field refuses a non-ISO code, naming the field", () => {
  const base = { title: "t", price: 1, currency: "ABC", category: "c", moq: 1 };
  const cases: [string, { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, unknown, string][] = [
    ["create product", CreateProductBody, base, "currency"],
    ["update product", UpdateProductBody, { currency: "ABC" }, "currency"],
    ["product list filter", ProductListQuery, { currency: "ABC" }, "currency"],
    ["inquiry reply", RespondInquiryBody, { message: "hello there", quotedPrice: 1, currency: "ABC" }, "currency"],
    ["requirement", CreateRequirementBody, { title: "need", budget: 5, currency: "ABC" }, "currency"],
    ["task", CreateTaskBody, { title: "do it", reward: 5, currency: "XAU" }, "currency"],
    ["fx rates", SetFxRatesBody, { date: "2026-01-02", rates: { ZZZ: 1.5 } }, "rates.ZZZ"],
  ];
  it.each(cases)("%s", (_name, schema, input, path) => {
    const r = schema.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toContain(path);
  });
});

describe("reference-rate input", () => {
  it("takes positive rates of at most 8 decimals, a real date, USD only as 1", () => {
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { EUR: 0.96052253, JPY: 150.764 } }).success).toBe(true);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-30", rates: { EUR: 1 } }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { EUR: 0.123456789 } }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { EUR: 0 } }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { EUR: -1 } }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: {} }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { eur: 1 } }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { USD: 1.1 } }).success).toBe(false);
    expect(SetFxRatesBody.safeParse({ date: "2026-02-28", rates: { USD: 1 } }).success).toBe(true);
  });
});

describe("exact money arithmetic", () => {
  it("parses and formats cents without floating point", () => {
    expect(toCents(0.3)).toBe(30n);
    expect(toCents("590.49")).toBe(59049n);
    expect(toCents(1e-2)).toBe(1n);
    expect(toCents(999_999_999_999.99)).toBe(99_999_999_999_999n);
    expect(formatCents(5n)).toBe("0.05");
    expect(formatCents(-1205n)).toBe("-12.05");
    expect(() => toCents(0.001)).toThrow(RangeError);
    expect(() => toCents("1,5")).toThrow(RangeError);
    expect(rateUnits("0.96052300")).toBe(96_052_300n);
    expect(rateUnits(1e-8)).toBe(1n);
    expect(formatRate(96_052_300n)).toBe("0.960523");
    expect(formatRate(1_650_000_000_000n)).toBe("16500");
    expect(() => rateUnits(0)).toThrow(RangeError);
  });

  const rates = new Map([
    ["EUR", "0.960523"],
    ["JPY", "150.764"],
    ["IDR", "16548"],
    ["CNY", "7.27903"],
  ]);

  it("converts through USD, rounding half away from zero once", () => {
    expect(convertWith(rates, 100, "USD", "EUR")).toBe("96.05"); // 96.0523
    expect(convertWith(rates, 100, "USD", "JPY")).toBe("15076.40");
    expect(convertWith(rates, 100, "JPY", "USD")).toBe("0.66"); // 0.66329...
    expect(convertWith(rates, "1000.00", "EUR", "USD")).toBe("1041.10"); // 1041.1010...
    expect(convertWith(rates, 250, "EUR", "IDR")).toBe("4307028.57"); // 250 / 0.960523 * 16548 = 4307028.5667...
    expect(convertWith(rates, 1, "CNY", "EUR")).toBe("0.13"); // 0.131957...
    expect(convertWith(rates, 0, "EUR", "JPY")).toBe("0.00");
    // Half-cent ties: 0.05 USD at 0.5 per USD = 0.025 -> 0.03; -0.05 -> -0.03.
    const half = new Map([["XCD", "0.5"]]);
    expect(convertWith(half, 0.05, "USD", "XCD")).toBe("0.03");
    expect(convertCents(half, -5n, "USD", "XCD")).toBe(-3n);
    expect(convertWith(half, 0.01, "USD", "XCD")).toBe("0.01"); // 0.005 -> 0.01
  });

  it("is exact where floating point drifts", () => {
    // 0.1 + 0.2 style drift: 1.15 * 100 is 114.99999999999999 in binary floating point.
    const r = new Map([["GBP", "1.15"]]);
    expect(convertWith(r, 100, "USD", "GBP")).toBe("115.00");
    // 1.005 per USD: 1 USD is 1.005, a tie rounded up to 1.01; Math.round(1 * 1.005 * 100) / 100 gives 1.
    expect(convertWith(new Map([["GBP", "1.005"]]), 1, "USD", "GBP")).toBe("1.01");
    // A large amount keeps every cent: 999,999,999,999.99 USD in EUR.
    expect(convertWith(rates, "999999999999.99", "USD", "EUR")).toBe("960522999999.99");
  });

  it("answers the same currency unchanged without needing a rate", () => {
    expect(convertWith(new Map(), "12.5", "VND", "VND")).toBe("12.50");
  });

  it("refuses a currency without a rate as validation_failed naming the field", () => {
    let err: unknown;
    try {
      convertWith(rates, 10, "KPW", "USD", "mandateCurrency");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("validation_failed");
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).errors).toEqual([{ path: "mandateCurrency", message: expect.stringContaining("KPW") }]);
  });
});
