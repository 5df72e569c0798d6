// Who is calling: every service verb reads this from ctx.actor, never from request headers.
import type { PermissionMap } from "@/lib/ai/permissions";
import { ApiError } from "@/lib/errors";
import type { UserRole } from "@/lib/db/schema";

export type SessionRef = { id: string; via: "cookie" | "bearer" | "api_key" };

export type AccountInfo = {
  id: string;
  username: string;
  email: string;
  role: UserRole;
  sellerProfileId: string | null;
  /** Whether the owner confirmed `email` (a verify-email link); AI accounts have no address of their own. */
  emailVerified?: boolean;
};

export type HumanActor = { type: "human"; user: AccountInfo; session: SessionRef; rateTier: "standard" | "unlimited" };
export type AiActor = {
  type: "ai";
  user: AccountInfo & { role: "AI_BUYER" | "AI_SELLER" };
  guardian: { id: string; username: string; sellerProfileId: string | null };
  permissions: PermissionMap;
  session: SessionRef;
  rateTier: "standard" | "unlimited";
};
export type AnonymousActor = { type: "anonymous" };
export type SystemActor = { type: "system" };

export type Actor = AnonymousActor | HumanActor | AiActor | SystemActor;
export type SignedInActor = HumanActor | AiActor;

export const ANONYMOUS: AnonymousActor = { type: "anonymous" };
export const SYSTEM: SystemActor = { type: "system" };

export function isSignedIn(actor: Actor): actor is SignedInActor {
  return actor.type === "human" || actor.type === "ai";
}

export function isAdmin(actor: Actor): boolean {
  return actor.type === "human" && actor.user.role === "ADMIN";
}

/** The store an actor acts for: its own, or for an AI_SELLER its guardian's. */
export function actingSellerProfileId(actor: Actor): string | null {
  if (actor.type === "human") return actor.user.sellerProfileId;
  if (actor.type === "ai" && actor.user.role === "AI_SELLER") return actor.guardian.sellerProfileId;
  return null;
}

/** The human behind a guardian-only call (the route's `access: "human"` has already checked). */
export function humanUser(actor: Actor): HumanActor["user"] {
  if (actor.type !== "human") throw new Error("humanUser() on a route that does not require a human");
  return actor.user;
}

/** The account behind a route with `access: "user"` (the wrapper has already refused anonymous callers). */
export function signedInActor(actor: Actor): SignedInActor {
  if (!isSignedIn(actor)) throw new Error("signedInActor() on a route that does not require sign-in");
  return actor;
}

/** The store the actor acts for, or 409 `seller_profile_required`. */
export function requireStoreId(actor: Actor): string {
  const id = actingSellerProfileId(actor);
  if (!id) throw new ApiError("seller_profile_required", "Open a store (seller profile) first: register as a seller or upload a logo");
  return id;
}
