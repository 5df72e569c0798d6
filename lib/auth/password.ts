// bcrypt (bcryptjs) password hashing. Unknown users are compared against a dummy hash so a failed
// sign-in takes the same time whether or not the account exists.
import bcrypt from "bcryptjs";
import { env } from "@/lib/env";

let dummyHash: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, env().BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= bcrypt.hash("dummy-password-for-timing", env().BCRYPT_COST);
    await bcrypt.compare(password, await dummyHash);
    return false;
  }
  return bcrypt.compare(password, hash);
}
