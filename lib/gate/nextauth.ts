// NextAuth's routes through the gate (contract 9.1): its credentials callback is a sign-in attempt
// like POST /api/auth/login, so it counts against the anonymous tier of the address (the sign-in
// brake then slows the account per address, in lib/services/auth). The session and CSRF reads the
// pages make are plumbing, not calls, and are not counted. AI sign-ins are audited by the sign-in
// service itself, whichever route they come by.
import { problemResponse } from "@/lib/api/errors";
import { consumeAnonymousTier } from "@/lib/api/rate-limit";
import { clientIp } from "@/lib/auth/cookies";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";

const COUNTED = /\/api\/auth\/callback\/credentials\/?$/;

/** The refusal of a NextAuth request by the rate tier, or null to let NextAuth answer it. */
export async function gateNextAuth(req: Request): Promise<Response | null> {
  if (req.method !== "POST" || !COUNTED.test(new URL(req.url).pathname)) return null;
  try {
    await consumeAnonymousTier(await getDb(), clientIp(req.headers));
    return null;
  } catch (err) {
    if (err instanceof ApiError) return problemResponse(err);
    throw err;
  }
}
