// Status changes are compare-and-set (contract 9.1): the UPDATE itself names the states the row
// may leave, so of two concurrent transitions from one state the database lets exactly one through
// (PostgreSQL re-checks the WHERE on the row a concurrent writer just committed) and the other is
// answered 409 `invalid_state`. Reading the status first and writing it afterwards is what let a
// confirm overwrite an acknowledged cancellation.
import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { ApiError, notFound } from "@/lib/errors";
import type { Db } from "@/lib/db/client";
import { approvals, inquiries, inquiryReplies, offers, orders, requirements, tasks } from "@/lib/db/schema";

/** Every table with a state machine, and how a status problem names its row. */
const MACHINES = {
  order: { table: orders, noun: "Order" },
  inquiry: { table: inquiries, noun: "Inquiry" },
  reply: { table: inquiryReplies, noun: "Reply" },
  requirement: { table: requirements, noun: "Requirement" },
  task: { table: tasks, noun: "Task" },
  approval: { table: approvals, noun: "Approval" },
  offer: { table: offers, noun: "Offer" },
} as const;

export type Machine = keyof typeof MACHINES;
type Table<K extends Machine> = (typeof MACHINES)[K]["table"];
export type StateRow<K extends Machine> = Table<K>["$inferSelect"];
export type State<K extends Machine> = StateRow<K>["status"];

export type Change<K extends Machine> = {
  /** The states the row may leave; any other is 409 `invalid_state`. */
  from: readonly State<K>[];
  to: State<K>;
  /** Further columns written with the status (claimedBy, result, decidedAt, ...). */
  set?: Partial<Table<K>["$inferInsert"]>;
  /** Narrows which rows the caller may move (its own, say); a row outside it is 404. */
  scope?: SQL;
  /** The verb in the refusal: "cannot be <verb>" (default: the target state). */
  verb?: string;
};

type AnyTable = PgTable & { id: PgColumn; status: PgColumn };

function parts<K extends Machine>(kind: K) {
  const { table, noun } = MACHINES[kind];
  return { table: table as unknown as AnyTable, noun, stamped: "updatedAt" in table };
}

/** The compare-and-set itself: the moved row, or undefined when none matched. */
async function compareAndSet<K extends Machine>(db: Db, kind: K, id: string, change: Change<K>): Promise<StateRow<K> | undefined> {
  const { table, stamped } = parts(kind);
  const values = { ...change.set, status: change.to, ...(stamped ? { updatedAt: new Date() } : {}) };
  const [row] = await db
    .update(table)
    .set(values as never)
    .where(and(eq(table.id, id), change.scope, inArray(table.status, change.from as readonly string[] as string[])))
    .returning();
  return row as StateRow<K> | undefined;
}

/**
 * Move one row from one of `from` to `to` in the caller's transaction (or alone). When nothing
 * moved, the row is read again to say why: 404 when it is gone (or outside `scope`), else 409
 * `invalid_state` naming the status it is in now.
 */
export async function transition<K extends Machine>(db: Db, kind: K, id: string, change: Change<K>): Promise<StateRow<K>> {
  const moved = await compareAndSet(db, kind, id, change);
  if (moved) return moved;
  const { table, noun } = parts(kind);
  const [current] = await db
    .select({ status: table.status })
    .from(table)
    .where(and(eq(table.id, id), change.scope));
  if (!current) throw notFound(noun);
  throw invalidState(noun, String(current.status), change.verb ?? String(change.to));
}

/** The same move where a row no longer in `from` is not the caller's concern (expiry, follow-ups). */
export async function transitionIfStill<K extends Machine>(db: Db, kind: K, id: string, change: Change<K>): Promise<StateRow<K> | undefined> {
  return compareAndSet(db, kind, id, change);
}

/**
 * For a verb that adds to a row in a state rather than moving it (a reply to an open inquiry): lock
 * the row while it is in one of `from`, so a concurrent transition waits for the caller's
 * transaction. Call inside a transaction; outside one the lock ends with the statement.
 */
export async function holdState<K extends Machine>(db: Db, kind: K, id: string, hold: Pick<Change<K>, "from" | "scope" | "verb">): Promise<StateRow<K>> {
  const { table, noun } = parts(kind);
  const [row] = (await db
    .select()
    .from(table)
    .where(and(eq(table.id, id), hold.scope))
    .for("update")) as StateRow<K>[];
  if (!row) throw notFound(noun);
  if (!(hold.from as readonly string[]).includes(String(row.status))) throw invalidState(noun, String(row.status), hold.verb ?? "changed");
  return row;
}

export function invalidState(noun: string, current: string, verb: string): ApiError {
  return new ApiError("invalid_state", `This ${noun.toLowerCase()} is ${current}: it cannot be ${verb}`);
}
