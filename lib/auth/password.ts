// bcrypt (bcryptjs) password hashing, run in worker threads (hash-pool.ts) so it never blocks the
// event loop. Unknown users are compared against a dummy hash so a failed sign-in takes the same
// time whether or not the account exists.
import { env } from "@/lib/env";
import { bcryptCompare, bcryptHash } from "./hash-pool";

const DUMMY = Symbol.for("expo-trade.dummy-hash");
type G = typeof globalThis & { [DUMMY]?: Promise<string> };

export function hashPassword(password: string): Promise<string> {
  return bcryptHash(password, env().BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    const g = globalThis as G;
    g[DUMMY] ??= bcryptHash("dummy-password-for-timing", env().BCRYPT_COST);
    await bcryptCompare(password, await g[DUMMY]);
    return false;
  }
  return bcryptCompare(password, hash);
}
