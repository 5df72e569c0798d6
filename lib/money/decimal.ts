// Exact money arithmetic (contract 9.2): amounts are integer cents and rates fixed-point integers
// (BigInt), so no binary floating point enters a result. Pure, so forms, schemas and tests can use it;
// ./convert.ts adds the database's current rates.
import { ApiError } from "@/lib/errors";

/** Rates are stored and computed with 8 decimals (numeric(20,8), lib/db/schema/money.ts). */
export const RATE_SCALE = 8;
/** The reference currency: every rate says how many units of a currency one USD buys. */
export const BASE_CURRENCY = "USD";

/** Currency code -> units per USD as a decimal string ("0.96052300"). USD is always "1". */
export type RateTable = ReadonlyMap<string, string>;

/** An amount in minor units (cents) from a number or decimal string of at most two decimals. */
export function toCents(amount: number | string): bigint {
  return parseDecimal(typeof amount === "number" ? numberText(amount) : amount, 2, "amount");
}

/** Cents as a decimal string with two places ("-12.05"). */
export function formatCents(cents: bigint): string {
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  const frac = (abs % 100n).toString().padStart(2, "0");
  return `${neg ? "-" : ""}${abs / 100n}.${frac}`;
}

/** A decimal rate ("1.0411", 1.0411) as an integer scaled by 10^8; more than 8 decimals is an error. */
export function rateUnits(rate: number | string): bigint {
  const units = parseDecimal(typeof rate === "number" ? numberText(rate) : rate, RATE_SCALE, "rate");
  if (units <= 0n) throw new RangeError(`A rate must be positive: ${rate}`);
  return units;
}

/** Scaled rate units back to a plain decimal string without trailing zeros ("0.960523"). */
export function formatRate(units: bigint): string {
  const s = units.toString().padStart(RATE_SCALE + 1, "0");
  const int = s.slice(0, -RATE_SCALE);
  const frac = s.slice(-RATE_SCALE).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

/**
 * `cents` of `from` in `to`, in cents, rounded half away from zero once at the end (amount x
 * rate(to) / rate(from); both rates are per USD, so their scale cancels).
 */
export function convertCents(rates: RateTable, cents: bigint, from: string, to: string, field = "currency"): bigint {
  if (from === to) return cents;
  const n = cents * rateUnits(rateOf(rates, to, field));
  const d = rateUnits(rateOf(rates, from, field));
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return q + (n < 0n ? -1n : 1n);
  return q;
}

/** `amount` of `from` in `to` as a two-place decimal string, from a rate table already read. */
export function convertWith(rates: RateTable, amount: number | string, from: string, to: string, field = "currency"): string {
  return formatCents(convertCents(rates, toCents(amount), from, to, field));
}

function rateOf(rates: RateTable, code: string, field: string): string {
  const rate = code === BASE_CURRENCY ? "1" : rates.get(code);
  if (rate === undefined) {
    const message = `No reference exchange rate for ${code}; an administrator sets one at PUT /api/admin/fx-rates`;
    throw new ApiError("validation_failed", message, { errors: [{ path: field, message }] });
  }
  return rate;
}

/** The shortest decimal text of a finite number, never in exponent form ("1e-7" -> "0.0000001"). */
function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite number: ${n}`);
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(s);
  if (!m) return s;
  const digits = m[2]! + (m[3] ?? "");
  const point = m[2]!.length + Number(m[4]);
  const body =
    point <= 0
      ? `0.${"0".repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + "0".repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1] + body;
}

function parseDecimal(text: string, scale: number, what: string): bigint {
  const m = /^\s*(-?)(\d+)(?:\.(\d+))?\s*$/.exec(text);
  if (!m) throw new RangeError(`Not a decimal ${what}: ${JSON.stringify(text)}`);
  const frac = (m[3] ?? "").replace(/0+$/, "");
  if (frac.length > scale) throw new RangeError(`An ${what} has at most ${scale} decimals: ${text}`);
  const units = BigInt(m[2]! + frac.padEnd(scale, "0"));
  return m[1] ? -units : units;
}
