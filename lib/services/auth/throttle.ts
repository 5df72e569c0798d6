// Brute-force brakes for every sign-in route (issue #7 point 5, contract 9.1). Failed sign-ins are
// counted in the database (the rate_limits table, fixed windows), so every instance sees the same
// counts. The brake slows an account per source address:
//   - per account and address: more than LOGIN_MAX_FAILURES_PER_ACCOUNT failures from one address
//     ⇒ 429 for that account from that address (an attacker behind the owner's own NAT included);
//   - from addresses the account never signed in from, also: more than
//     LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES failures on the account from anywhere (guessing
//     spread over many addresses), or more than LOGIN_MAX_FAILURES_PER_IP failures of the address
//     across all accounts (password spraying) ⇒ 429.
// An address the account signed in from successfully before (a session row, revoked or not, of the
// last KNOWN_ADDRESS_DAYS) keeps only its own allowance: whatever strangers do elsewhere, the owner
// is never locked out of it (account-lockout DoS).
// An unknown identifier is counted like an account (by its lower-cased text), so a locked unknown
// name and a locked real account answer alike. A success does not reset the counts: the window ends.
import { and, eq, gt, sql } from "drizzle-orm";
import { ApiError } from "@/lib/errors";
import { bumpCount, currentWindow, peekCounts } from "@/lib/api/rate-limit";
import type { Db } from "@/lib/db/client";
import { sessions } from "@/lib/db/schema";
import { env } from "@/lib/env";

export const KNOWN_ADDRESS_DAYS = 90;

export type LoginSubject = { userId: string | null; identifier: string; ip: string };

function keys(s: LoginSubject) {
  const account = s.userId ? `u:${s.userId}` : `n:${s.identifier.trim().toLowerCase()}`;
  return { ip: `login:ip:${s.ip}`, account: `login:acct:${account}`, accountIp: `login:acctip:${account}|${s.ip}` };
}

/** Throws 429 `rate_limited` (with Retry-After) when this sign-in attempt must wait. */
export async function checkLoginThrottle(db: Db, s: LoginSubject): Promise<void> {
  const e = env();
  const k = keys(s);
  const [ipFailures = 0, accountFailures = 0, accountIpFailures = 0] = await peekCounts(db, [k.ip, k.account, k.accountIp], e.LOGIN_FAILURE_WINDOW_SECONDS);
  if (accountIpFailures >= e.LOGIN_MAX_FAILURES_PER_ACCOUNT) throw throttled();
  if (ipFailures < e.LOGIN_MAX_FAILURES_PER_IP && accountFailures < e.LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES) return;
  if (await knownAddress(db, s)) return;
  throw throttled();
}

/** Count a failed sign-in (wrong password or unknown identifier) against the address and the account. */
export async function recordLoginFailure(db: Db, s: LoginSubject): Promise<void> {
  const window = env().LOGIN_FAILURE_WINDOW_SECONDS;
  const k = keys(s);
  // Together: the three counts go out in one grouped write (rate-limit.ts) instead of three.
  await Promise.all([k.ip, k.account, k.accountIp].map((key) => bumpCount(db, key, window)));
}

async function knownAddress(db: Db, s: LoginSubject): Promise<boolean> {
  // Run for unknown identifiers too (with an id that matches nothing): same work either way.
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(sessions)
    .where(and(eq(sessions.userId, s.userId ?? "-"), eq(sessions.ip, s.ip), gt(sessions.createdAt, sql`now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`)))
    .limit(1);
  return row !== undefined;
}

function throttled(): ApiError {
  const { resetSeconds } = currentWindow(env().LOGIN_FAILURE_WINDOW_SECONDS);
  return new ApiError("rate_limited", `Too many failed sign-ins; retry in ${resetSeconds} s`, { headers: { "Retry-After": String(resetSeconds) } });
}
