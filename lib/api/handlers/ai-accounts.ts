// POST /api/ai/accounts - create an AI agent account
// GET /api/ai/accounts - list the guardian's AI accounts
// PATCH /api/ai/accounts - re-enable, set thresholds and budget, set a new password (revokes the agent's credentials)
// DELETE /api/ai/accounts?aiUserId= - disable (revokes every session)
import { createAiAccountOp, deleteAiAccountOp, listAiAccountsOp, patchAiAccountOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { humanUser } from "@/lib/auth/actor";
import { createAiAccountRecord, disableAiAccount, listAiAccounts, updateAiAccount } from "@/lib/services/ai/accounts";

export const POST = route(createAiAccountOp, async ({ ctx, body }) =>
  json({ account: await createAiAccountRecord(ctx.db, humanUser(ctx.actor).id, body.role, body.password) }, 201),
);

export const GET = route(listAiAccountsOp, async ({ ctx }) => ({ accounts: await listAiAccounts(ctx.db, humanUser(ctx.actor).id) }));

export const PATCH = route(patchAiAccountOp, async ({ ctx, body }) => ({ account: await updateAiAccount(ctx.db, humanUser(ctx.actor).id, body) }));

export const DELETE = route(deleteAiAccountOp, async ({ ctx, query }) => ({
  account: await disableAiAccount(ctx.db, humanUser(ctx.actor).id, query.aiUserId),
}));
