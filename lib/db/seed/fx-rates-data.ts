// The built-in reference exchange rates (contract 9.2; docs/decisions.md says where they come from):
// the ECB's euro foreign exchange reference rates of 28 February 2025, re-based to USD (units per USD
// = units per EUR / 1.0411, the ECB's USD rate that day) and rounded to 6 significant digits, plus
// the official USD pegs of six Gulf and Levant currencies. Fixed numbers, never fetched: an
// administrator replaces them with current ones at PUT /api/admin/fx-rates.
export const SEED_FX_DATE = "2025-02-28";

export const SEED_FX_RATES: Readonly<Record<string, string>> = {
  AUD: "1.60801",
  BGN: "1.87859",
  BRL: "5.83152",
  CAD: "1.44261",
  CHF: "0.902315",
  CNY: "7.27903",
  CZK: "24.0409",
  DKK: "7.16387",
  EUR: "0.960523",
  GBP: "0.793468",
  HKD: "7.77831",
  HUF: "383.729",
  IDR: "16548",
  ILS: "3.59783",
  INR: "87.3797",
  ISK: "139.948",
  JPY: "150.764",
  KRW: "1459.92",
  MXN: "20.3814",
  MYR: "4.46249",
  NOK: "11.2616",
  NZD: "1.78455",
  PHP: "57.9723",
  PLN: "3.98646",
  RON: "4.78033",
  SEK: "10.7463",
  SGD: "1.34829",
  THB: "34.1629",
  TRY: "36.5177",
  ZAR: "18.4341",
  // Official pegs to the US dollar.
  AED: "3.6725",
  SAR: "3.75",
  QAR: "3.64",
  BHD: "0.376",
  OMR: "0.3845",
  JOD: "0.709",
};
