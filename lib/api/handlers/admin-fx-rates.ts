// PUT /api/admin/fx-rates - set reference exchange rates as of a date (ADMIN)
import { setFxRatesOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { setFxRates } from "@/lib/services/money/fx-rates";

export const PUT = route(setFxRatesOp, async ({ ctx, body }) => setFxRates(ctx, body));
