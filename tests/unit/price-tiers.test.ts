// Quantity price breaks (contract 9.4): the unit price an order pays, and the order the tiers must keep.
import { describe, expect, it } from "vitest";
import { CreateProductBody, UpdateProductBody } from "@/lib/schemas/products";
import { sameTiers, storedTiers, tierIssues, unitPriceFor } from "@/lib/services/catalog/price-tiers";

const lamp = {
  price: "12.50",
  priceTiers: [
    { minQty: 500, unitPrice: "11.80" },
    { minQty: 2000, unitPrice: "10.90" },
  ],
};

describe("unitPriceFor", () => {
  it("is the base price below the first tier, the tier from its minQty on, the deepest from the last", () => {
    expect(unitPriceFor(lamp, 1)).toBe("12.50");
    expect(unitPriceFor(lamp, 499)).toBe("12.50");
    expect(unitPriceFor(lamp, 500)).toBe("11.80");
    expect(unitPriceFor(lamp, 1999)).toBe("11.80");
    expect(unitPriceFor(lamp, 2000)).toBe("10.90");
    expect(unitPriceFor(lamp, 1_000_000)).toBe("10.90");
  });

  it("is the price when there are no tiers, in the type it was given", () => {
    expect(unitPriceFor({ price: 7, priceTiers: [] }, 10_000)).toBe(7);
    expect(unitPriceFor({ price: 7, priceTiers: [{ minQty: 10, unitPrice: 6.5 }] }, 10)).toBe(6.5);
  });
});

describe("tierIssues", () => {
  const product = { price: 12.5, moq: 100 };
  it("accepts ascending quantities above the moq with falling prices below the base price", () => {
    expect(tierIssues(lamp.priceTiers, product)).toEqual([]);
    expect(tierIssues([], product)).toEqual([]);
  });

  it("names each issue by its path", () => {
    const paths = (tiers: { minQty: number; unitPrice: number }[], p = product) => tierIssues(tiers, p).map((i) => i.path);
    expect(paths([{ minQty: 100, unitPrice: 11 }])).toEqual(["priceTiers.0.minQty"]);
    expect(paths([{ minQty: 200, unitPrice: 12.5 }])).toEqual(["priceTiers.0.unitPrice"]);
    expect(
      paths([
        { minQty: 200, unitPrice: 11 },
        { minQty: 200, unitPrice: 11 },
      ]),
    ).toEqual(["priceTiers.1.minQty", "priceTiers.1.unitPrice"]);
    expect(
      paths([
        { minQty: 300, unitPrice: 11 },
        { minQty: 200, unitPrice: 10 },
      ]),
    ).toEqual(["priceTiers.1.minQty"]);
    expect(paths([{ minQty: 200.5, unitPrice: 11 }])).toEqual(["priceTiers.0.minQty"]);
    expect(paths(Array.from({ length: 11 }, (_, i) => ({ minQty: 200 + i, unitPrice: 12 - i })))).toEqual(["priceTiers"]);
    // Compared in cents: 0.1 + 0.2 is not above 0.30.
    expect(paths([{ minQty: 200, unitPrice: 0.1 + 0.2 }], { price: 0.3, moq: 1 })).toEqual(["priceTiers.0.unitPrice"]);
  });
});

describe("the request schemas", () => {
  const base = { title: "Lamp", price: 12.5, currency: "USD", category: "c", moq: 100 };
  it("checks a new product's tiers against its own price and moq", () => {
    const ok = CreateProductBody.safeParse({ ...base, priceTiers: [{ minQty: 500, unitPrice: 11.8 }] });
    expect(ok.success).toBe(true);
    const bad = CreateProductBody.safeParse({
      ...base,
      minOrderQty: 100,
      moq: undefined,
      priceTiers: [
        { minQty: 500, unitPrice: 11.8 },
        { minQty: 400, unitPrice: 13 },
      ],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual(["priceTiers.1.minQty", "priceTiers.1.unitPrice"]);
  });

  it("refuses more than ten tiers and prices with more than two decimals on update", () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ minQty: 10 + i, unitPrice: 9 }));
    expect(UpdateProductBody.safeParse({ priceTiers: eleven }).error!.issues[0]!.path).toEqual(["priceTiers"]);
    expect(UpdateProductBody.safeParse({ priceTiers: [{ minQty: 10, unitPrice: 9.999 }] }).error!.issues[0]!.path).toEqual(["priceTiers", 0, "unitPrice"]);
    expect(UpdateProductBody.parse({ priceTiers: [] }).priceTiers).toEqual([]);
  });
});

it("stores amounts as two-decimal strings and compares tiers by cents", () => {
  expect(storedTiers([{ minQty: 5, unitPrice: 11.8 }])).toEqual([{ minQty: 5, unitPrice: "11.80" }]);
  expect(sameTiers([{ minQty: 5, unitPrice: "11.80" }], [{ minQty: 5, unitPrice: 11.8 }])).toBe(true);
  expect(sameTiers([{ minQty: 5, unitPrice: "11.80" }], [{ minQty: 6, unitPrice: 11.8 }])).toBe(false);
});
