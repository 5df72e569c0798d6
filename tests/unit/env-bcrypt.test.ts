// BCRYPT_COST below 10 is for test runs only: refused unless BCRYPT_TEST_LOW_COST=1 says so.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/lib/env";

const CACHE = Symbol.for("expo-trade.env");
const saved = { cost: process.env.BCRYPT_COST, low: process.env.BCRYPT_TEST_LOW_COST };

function fresh(cost: string | undefined, low: string | undefined) {
  delete (globalThis as Record<symbol, unknown>)[CACHE];
  for (const [name, value] of [
    ["BCRYPT_COST", cost],
    ["BCRYPT_TEST_LOW_COST", low],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return env;
}

afterEach(() => {
  fresh(saved.cost, saved.low);
});

describe("BCRYPT_COST", () => {
  it("is 10 unless set, and refuses less than 10 without the test runs' switch", () => {
    expect(fresh(undefined, undefined)().BCRYPT_COST).toBe(10);
    expect(() => fresh("9", undefined)()).toThrow(/BCRYPT_COST: BCRYPT_COST must be at least 10/);
    expect(() => fresh("4", "0")()).toThrow(/BCRYPT_TEST_LOW_COST=1/);
    expect(fresh("12", undefined)().BCRYPT_COST).toBe(12);
  });

  it("goes down to 4 for a test run, never below", () => {
    expect(fresh("4", "1")().BCRYPT_COST).toBe(4);
    expect(() => fresh("3", "1")()).toThrow(/BCRYPT_COST/);
    expect(() => fresh("16", "1")()).toThrow(/BCRYPT_COST/);
  });
});
