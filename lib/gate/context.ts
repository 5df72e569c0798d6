// The one context every service verb acts in, whichever channel the call came by (issue #13, ADR
// 0004): the database (or the transaction) to use, the caller, and where the call came from. The
// REST wrapper (lib/api/route.ts) builds it from the request; the constructors below are for the
// callers that have no request of their own.
import { ANONYMOUS, type Actor } from "@/lib/auth/actor";
import type { Db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import type { Channel } from "./gate";

/** Everything a handler and the services it calls know of the call, whichever channel it came by. */
export type Ctx<A extends Actor = Actor> = { db: Db; actor: A; ip: string; requestId: string; userAgent: string; channel: Channel };

/** A server component's or server action's call, as the signed-in account or anonymous. */
export function pageCtx(db: Db, actor: Actor = ANONYMOUS): Ctx {
  return { db, actor, ip: "", requestId: newId(), userAgent: "", channel: "page" };
}

/** The server's own calls (start-up jobs, seeds, scripts, tests), as `actor` (anonymous by default). */
export function systemCtx<A extends Actor = Actor>(db: Db, actor: A = ANONYMOUS as A): Ctx<A> {
  return { db, actor, ip: "", requestId: newId(), userAgent: "", channel: "system" };
}
