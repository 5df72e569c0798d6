import { errorResponses } from "@/lib/schemas/common";
import { FxRatesSchema, SetFxRatesBody } from "@/lib/schemas/money";
import { defineOperation } from "../operation";

const RATES_TEXT =
  "Every rate is how many units of the currency 1 USD buys, as of its date (`dates`); `date` is the latest. " +
  "Mandate rules (contract 9.2) compare money converted at these rates, exact to the cent. " +
  "A currency missing here cannot be converted: rules that need it answer 400 `validation_failed` naming the currency field.";

export const getFxRatesOp = defineOperation({
  method: "GET",
  path: "/api/fx-rates",
  operationId: "getFxRates",
  summary: "Reference exchange rates to USD (public)",
  description: RATES_TEXT,
  tags: ["Money"],
  access: "public",
  permission: "none",
  action: "money.fx_rates",
  transactional: false,
  responses: { 200: { description: "The current rates", schema: FxRatesSchema }, ...errorResponses(429) },
});

export const setFxRatesOp = defineOperation({
  method: "PUT",
  path: "/api/admin/fx-rates",
  operationId: "setFxRates",
  summary: "Set reference exchange rates (ADMIN)",
  description:
    "Sets the listed currencies' rates as of `date` (not in the future); currencies not listed keep theirs. " +
    "Earlier rates stay on record. Codes must be ISO 4217 (upper case); USD is the base and is always 1. " +
    RATES_TEXT,
  tags: ["Admin"],
  access: "admin",
  permission: "none",
  action: "admin.fx_rates",
  body: SetFxRatesBody,
  responses: { 200: { description: "The rates now in force", schema: FxRatesSchema }, ...errorResponses(400, 401, 403, 429) },
});
