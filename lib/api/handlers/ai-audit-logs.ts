// GET /api/ai/audit-logs?aiUserId= - an AI account's audit log (JSON page, or CSV with format=csv)
import { notFound } from "@/lib/errors";
import { auditLogsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { getAiAccount } from "@/lib/services/ai/accounts";
import { auditLogsCsv, listAuditLogs } from "@/lib/services/ai/audit";

export const GET = route(auditLogsOp, async ({ ctx, query }) => {
  const account = await getAiAccount(ctx.db, humanUser(ctx.actor).id, query.aiUserId);
  if (!account) throw notFound("AI account");
  if (query.format === "csv") {
    const csv = await auditLogsCsv(ctx.db, query);
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="audit-${account.username}-${new Date().toISOString().slice(0, 10)}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  }
  return listAuditLogs(ctx.db, query);
});
