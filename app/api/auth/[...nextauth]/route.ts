// GET|POST /api/auth/* - NextAuth (csrf, callback/credentials, session, signout, providers)
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { gateNextAuth } from "@/lib/gate/nextauth";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so the secret comes from the validated environment at run time.
async function handler(req: Request, ctx: Ctx): Promise<Response> {
  const refused = await gateNextAuth(req);
  if (refused) return refused;
  return (NextAuth(authOptions()) as (req: Request, ctx: Ctx) => Promise<Response>)(req, ctx);
}

export { handler as GET, handler as POST };
