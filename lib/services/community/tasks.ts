// Marketplace tasks (contract 5): any registered user creates one (`open`); another user claims it
// (`claimed`); the claimer completes it with a result (`completed`); the creator may cancel while open.
// A reward is money (contract 9.1): an AI account's task whose reward its guardian's mandate does not
// cover waits as `pending_guardian_approval`, seen only by its creator, until approved (`open`),
// rejected or expired.
import { and, count, desc, eq, notInArray, or } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import type { Db } from "@/lib/db/client";
import { tasks } from "@/lib/db/schema";
import { requestApproval } from "@/lib/services/ai/approvals";
import { assertNotOwnAgent, assertNotSelfTrade } from "@/lib/services/ai/conduct";
import { buyerMandateRule } from "@/lib/services/ai/mandate";
import { transition } from "@/lib/services/state/transition";
import { parties, signedIn } from "@/lib/services/trade/common";
import type { Ctx } from "@/lib/gate/context";

type Row = typeof tasks.$inferSelect;
type Status = Row["status"];

async function views(db: Db, rows: Row[]) {
  const people = await parties(
    db,
    rows.flatMap((r) => [r.createdBy, ...(r.claimedBy ? [r.claimedBy] : [])]),
  );
  const who = (id: string) => people.get(id) ?? { id, username: "", isAI: false };
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    reward: r.reward === null ? null : Number(r.reward),
    currency: r.currency,
    status: r.status,
    createdBy: who(r.createdBy),
    claimedBy: r.claimedBy ? who(r.claimedBy) : null,
    result: r.result,
    sentByAI: r.sentByAI,
    createdAt: r.createdAt.toISOString(),
    claimedAt: r.claimedAt?.toISOString() ?? null,
    completedAt: r.completedAt?.toISOString() ?? null,
  }));
}

export async function createTask(ctx: Ctx, input: { title: string; description?: string; reward?: number; currency?: string }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const currency = input.currency ?? "USD";
  const hold = me.type === "ai" && input.reward ? await buyerMandateRule({ db, actor: me }, { total: input.reward.toFixed(2), currency }) : null;
  const [row] = await db
    .insert(tasks)
    .values({
      title: input.title,
      description: input.description ?? "",
      reward: input.reward === undefined ? null : input.reward.toFixed(2),
      currency: input.currency ?? null,
      createdBy: me.user.id,
      sentByAI: me.type === "ai",
      status: hold ? "pending_guardian_approval" : "open",
    })
    .returning();
  if (hold && me.type === "ai") {
    const summary = {
      item: input.title,
      total: input.reward,
      currency,
      rule: hold.rule,
      ruleCode: hold.limit,
      ruleParams: hold.params,
      converted: { amount: Number(hold.convertedTotal), currency: hold.mandateCurrency },
    };
    await requestApproval({ ...ctx, actor: me }, { kind: "task", subjectId: row!.id, summary });
  }
  return (await views(db, [row!]))[0]!;
}

export async function listTasks(ctx: Ctx, q: { status?: Status; mine?: "created" | "claimed"; page: number; limit: number }) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const where = and(
    q.status ? eq(tasks.status, q.status) : q.mine ? undefined : eq(tasks.status, "open"),
    // Held, rejected and expired tasks are their creator's alone.
    or(notInArray(tasks.status, [...UNPUBLISHED]), eq(tasks.createdBy, me.user.id)),
    q.mine === "created" ? eq(tasks.createdBy, me.user.id) : q.mine === "claimed" ? eq(tasks.claimedBy, me.user.id) : undefined,
  );
  const rows = await db
    .select()
    .from(tasks)
    .where(where)
    .orderBy(desc(tasks.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(tasks).where(where);
  return { tasks: await views(db, rows), page: q.page, limit: q.limit, total: Number(n?.n ?? 0) };
}

const UNPUBLISHED = ["pending_guardian_approval", "rejected", "expired"] as const satisfies readonly Status[];

/** A task as the caller may see it: one that never went public is its creator's alone (404 to others). */
async function load(ctx: Ctx, id: string) {
  const [row] = await ctx.db.select().from(tasks).where(eq(tasks.id, id));
  if (!row || ((UNPUBLISHED as readonly Status[]).includes(row.status) && row.createdBy !== signedIn(ctx.actor).user.id)) throw notFound("Task");
  return row;
}

export async function getTask(ctx: Ctx, id: string) {
  return (await views(ctx.db, [await load(ctx, id)]))[0]!;
}

export async function claimTask(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const task = await load(ctx, id);
  if (task.createdBy === me.user.id) throw new ApiError("forbidden", "You cannot claim your own task");
  await assertNotSelfTrade(ctx, { userId: task.createdBy });
  await assertNotOwnAgent(ctx, task.createdBy);
  const row = await transition(db, "task", id, { from: ["open"], to: "claimed", set: { claimedBy: me.user.id, claimedAt: new Date() } });
  return (await views(db, [row]))[0]!;
}

export async function completeTask(ctx: Ctx, id: string, result: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const task = await load(ctx, id);
  if (task.claimedBy !== me.user.id) throw new ApiError("forbidden", "Only the user who claimed this task can complete it");
  const row = await transition(db, "task", id, { from: ["claimed"], to: "completed", set: { result, completedAt: new Date() } });
  return (await views(db, [row]))[0]!;
}

export async function cancelTask(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const task = await load(ctx, id);
  // Tasks are visible to every signed-in user, so refusing is 403 (as for complete), not 404.
  if (task.createdBy !== me.user.id) throw new ApiError("forbidden", "Only the user who created this task can cancel it");
  const row = await transition(db, "task", id, { from: ["open"], to: "cancelled" });
  return (await views(db, [row]))[0]!;
}
