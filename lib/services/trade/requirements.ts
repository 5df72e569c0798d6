// Purchase requirements (contract 5): buyers post what they need; stores browse the open ones.
import { and, count, desc, eq, ilike, notInArray, or, sql } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import { actingSellerProfileId } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { categories, requirements, users } from "@/lib/db/schema";
import { BASE_CURRENCY, currentRateSql } from "@/lib/money/convert";
import { categorySubtree } from "@/lib/services/catalog/categories";
import { transition } from "@/lib/services/state/transition";
import type { Ctx } from "@/lib/gate/context";
import { parties, signedIn } from "./common";

type Row = typeof requirements.$inferSelect;

async function views(db: Db, rows: Row[], withBuyer: boolean) {
  const people = withBuyer
    ? await parties(
        db,
        rows.map((r) => r.buyerId),
      )
    : new Map();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    budget: r.budget === null ? null : Number(r.budget),
    currency: r.currency,
    categoryId: r.categoryId,
    quantity: r.quantity,
    status: r.status,
    buyerId: r.buyerId,
    ...(withBuyer ? { buyer: people.get(r.buyerId) } : {}),
    sentByAI: r.sentByAI,
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function createRequirement(
  ctx: Ctx,
  input: { title: string; description?: string; budget?: number; currency?: string; categoryId?: string; quantity?: number },
) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  if (input.categoryId) {
    const [c] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
    if (!c) throw new ApiError("validation_failed", "No such category", { errors: [{ path: "categoryId", message: "Unknown category" }] });
  }
  const [row] = await db
    .insert(requirements)
    .values({
      buyerId: me.user.id,
      title: input.title,
      description: input.description ?? "",
      budget: input.budget === undefined ? null : input.budget.toFixed(2),
      currency: input.currency ?? null,
      categoryId: input.categoryId ?? null,
      quantity: input.quantity ?? null,
      sentByAI: me.type === "ai",
    })
    .returning();
  return (await views(db, [row!], false))[0]!;
}

type Q = { status?: "open" | "closed"; q?: string; page: number; limit: number };
type BoardQ = Q & { category?: string; minBudget?: number; maxBudget?: number; currency?: string };

export async function listOwnRequirements(ctx: Ctx, q: Q) {
  const { db, actor } = ctx;
  const where = and(eq(requirements.buyerId, signedIn(actor).user.id), q.status ? eq(requirements.status, q.status) : undefined);
  const rows = await db
    .select()
    .from(requirements)
    .where(where)
    .orderBy(desc(requirements.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(requirements).where(where);
  return { requirements: await views(db, rows, false), page: q.page, limit: q.limit, total: Number(n?.n ?? 0) };
}

/**
 * Open requirements for stores to answer (contract 9.1): listed only to an account acting for a store
 * (its owner, or the owner's AI_SELLER); others get 403 `seller_profile_required` (the code's usual
 * 409 is for acting without a store; here the list itself is refused). A buyer reads its own at
 * `GET /api/buyer/requirements`. Buyer-data isolation (contract 3): an AI account never sees the
 * requirements of its guardian or its sibling AI account.
 */
export async function browseRequirements(ctx: Ctx, q: BoardQ) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  if (!actingSellerProfileId(me)) {
    throw new ApiError("seller_profile_required", "Open purchase requirements are listed to stores only; your own are at GET /api/buyer/requirements", {
      status: 403,
    });
  }
  const pattern = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const hidden =
    me.type === "ai"
      ? notInArray(
          requirements.buyerId,
          sql`(select ${users.id} from ${users} where ${users.id} = ${me.guardian.id} or ${users.guardianId} = ${me.guardian.id})`,
        )
      : undefined;
  const where = and(
    eq(requirements.status, "open"),
    hidden,
    pattern ? or(ilike(requirements.title, pattern), ilike(requirements.description, pattern)) : undefined,
    q.category ? sql`${requirements.categoryId} = any(array(${categorySubtree(q.category)}))` : undefined,
    q.currency ? eq(requirements.currency, q.currency) : undefined,
    ...budgetBounds(q),
  );
  const rows = await db
    .select()
    .from(requirements)
    .where(where)
    .orderBy(desc(requirements.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [n] = await db.select({ n: count() }).from(requirements).where(where);
  return { requirements: await views(db, rows, true), page: q.page, limit: q.limit, total: Number(n?.n ?? 0) };
}

export async function closeRequirement(ctx: Ctx, id: string) {
  const { db, actor } = ctx;
  const me = signedIn(actor);
  const row = await transition(db, "requirement", id, { from: ["open"], to: "closed", scope: eq(requirements.buyerId, me.user.id) });
  return (await views(db, [row], false))[0]!;
}

/**
 * Budget bounds in `currency` (USD by default), compared with each requirement's budget converted
 * at the reference rates (contract 9.3: money is compared converted). Requirements without a budget
 * or without a rate for their currency do not match a bound.
 */
function budgetBounds(q: BoardQ) {
  const target = q.currency ?? BASE_CURRENCY;
  const converted = sql`(${requirements.budget} / ${currentRateSql(requirements.currency)} * ${currentRateSql(target)})`;
  return [
    q.minBudget === undefined ? undefined : sql`${converted} >= ${q.minBudget}`,
    q.maxBudget === undefined ? undefined : sql`${converted} <= ${q.maxBudget}`,
  ];
}
