// POST /api/ai/accounts - create an AI agent account; GET - list the guardian's AI accounts
import { createAiAccountOp, listAiAccountsOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { createAiAccountRecord, listAiAccounts } from "@/lib/services/accounts/ai-accounts";

export const POST = route(createAiAccountOp, async ({ ctx, body }) => {
  const guardian = ctx.actor.type === "human" ? ctx.actor.user : null;
  const account = await createAiAccountRecord(ctx.db, guardian!.id, body.role, body.password);
  return json({ account }, 201);
});

export const GET = route(listAiAccountsOp, async ({ ctx }) => {
  const guardian = ctx.actor.type === "human" ? ctx.actor.user : null;
  return { accounts: await listAiAccounts(ctx.db, guardian!.id) };
});
