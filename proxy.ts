// Locale routing only (never authorization), plus the http-only device cookie that tells one
// browser from another for the one-browser rule of contract 2.
import createMiddleware from "next-intl/middleware";
import type { NextRequest } from "next/server";
import { routing } from "@/lib/i18n/routing";

const intl = createMiddleware(routing);
const DEVICE_COOKIE = "et_device";

export default function proxy(request: NextRequest) {
  const response = intl(request);
  if (!request.cookies.has(DEVICE_COOKIE)) {
    response.cookies.set(DEVICE_COOKIE, crypto.randomUUID(), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: 400 * 24 * 60 * 60,
      secure: request.nextUrl.protocol === "https:",
    });
  }
  return response;
}

export const config = {
  matcher: "/((?!api/|api$|_next|uploads/|ws/|.*\\..*).*)",
};
