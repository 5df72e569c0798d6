// GET /api/health - liveness and database check
import { healthOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { checkDatabase } from "@/lib/services/system/health";

export const GET = route(healthOp, async () => {
  const health = await checkDatabase();
  return json(health, health.status === "ok" ? 200 : 503, { "Cache-Control": "no-store" });
});
