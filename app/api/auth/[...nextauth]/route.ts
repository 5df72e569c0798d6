// GET|POST /api/auth/* - NextAuth (csrf, callback/credentials, session, signout, providers)
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so the secret comes from the validated environment at run time.
async function handler(req: Request, ctx: Ctx): Promise<Response> {
  return (NextAuth(authOptions()) as (req: Request, ctx: Ctx) => Promise<Response>)(req, ctx);
}

export { handler as GET, handler as POST };
