// GET /api/ai/me - an AI account's own standing: permissions, mandate, spend and approvals
import { aiMeOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { forbidden } from "@/lib/errors";
import { aiStanding } from "@/lib/services/ai/standing";

export const GET = route(aiMeOp, async ({ ctx }) => {
  const { actor } = ctx;
  if (actor.type !== "ai") throw forbidden("GET /api/ai/me is for AI accounts: a guardian reads its agents at GET /api/ai/accounts");
  return aiStanding({ db: ctx.db, actor });
});
