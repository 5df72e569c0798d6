// Shared pieces of the trade verbs: who the actor is in a trade, the product being traded, money.
import { and, eq, inArray, isNull } from "drizzle-orm";
import { ApiError, notFound } from "@/lib/errors";
import { isSignedIn, type Actor, type SignedInActor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { products, sellerProfiles, users } from "@/lib/db/schema";

export function signedIn(actor: Actor): SignedInActor {
  if (!isSignedIn(actor)) throw new ApiError("unauthenticated", "Sign in first");
  return actor;
}

/**
 * The side a list defaults to when the caller names none (contract 9.5): an AI_SELLER exists to run its
 * guardian's store, so an empty buyer list would read as "no new orders"; everyone else buys.
 */
export function defaultSide(actor: Actor): "buyer" | "seller" {
  return actor.type === "ai" && actor.user.role === "AI_SELLER" ? "seller" : "buyer";
}

/** A product buyers may trade on (not deleted, not hidden). */
export async function tradableProduct(db: Db, id: string) {
  const [p] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.deletedAt), eq(products.isHidden, false)))
    .limit(1);
  if (!p) throw notFound("Product");
  return p;
}

/** A human trading with their own store is refused (AI accounts get the self-trade rule instead). */
export function assertNotOwnStore(actor: SignedInActor, sellerId: string) {
  if (actor.type === "human" && actor.user.sellerProfileId === sellerId) throw new ApiError("forbidden", "You cannot trade with your own store");
}

export type Party = { id: string; username: string; isAI: boolean };

export async function parties(db: Db, ids: string[]): Promise<Map<string, Party>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.select({ id: users.id, username: users.username, role: users.role }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, { id: r.id, username: r.username, isAI: r.role === "AI_BUYER" || r.role === "AI_SELLER" }]));
}

export async function stores(db: Db, ids: string[]): Promise<Map<string, { id: string; companyName: string; userId: string }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({ id: sellerProfiles.id, companyName: sellerProfiles.companyName, userId: sellerProfiles.userId })
    .from(sellerProfiles)
    .where(inArray(sellerProfiles.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Exact money arithmetic in cents. */
export function multiply(unitPrice: string | number, quantity: number): string {
  const cents = Math.round(Number(unitPrice) * 100) * quantity;
  return (cents / 100).toFixed(2);
}
