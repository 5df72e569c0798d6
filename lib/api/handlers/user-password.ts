// POST /api/user/password - change your password (ends every session of the account)
import { changePasswordOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { clearSessionCookieHeader } from "@/lib/auth/session-cookie";
import { changePassword } from "@/lib/services/accounts/password";

export const POST = route(changePasswordOp, async ({ ctx, body }) => json(await changePassword(ctx, body), 200, { "Set-Cookie": clearSessionCookieHeader() }));
