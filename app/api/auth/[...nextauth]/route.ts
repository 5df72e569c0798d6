// GET|POST /api/auth/* - NextAuth (csrf, callback/credentials, session, signout, providers)
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { credentialsForApi, isCredentialsCallback, wantsJsonAnswer } from "@/lib/auth/credentials-api";
import { gateNextAuth } from "@/lib/gate/nextauth";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so the secret comes from the validated environment at run time.
async function handler(req: Request, ctx: Ctx): Promise<Response> {
  const refused = await gateNextAuth(req);
  if (refused) return refused;
  const nextAuth = (r: Request) => (NextAuth(authOptions()) as (req: Request, ctx: Ctx) => Promise<Response>)(r, ctx);
  if (isCredentialsCallback(req) && wantsJsonAnswer(req.headers)) return credentialsForApi(req, nextAuth);
  return nextAuth(req);
}

export { handler as GET, handler as POST };
