// GET /api/fx-rates - reference exchange rates to USD (public)
import { getFxRatesOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { getFxRates } from "@/lib/services/money/fx-rates";

export const GET = route(getFxRatesOp, async ({ ctx }) => getFxRates(ctx.db));
