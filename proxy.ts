// Locale routing (never authorization), the http-only device cookie that tells one browser from
// another for the one-browser rule of contract 2 (issued and signed by the server: lib/auth/device.ts), the `/api`-less aliases of contract 1, and the
// pages' Content-Security-Policy with a per-request nonce (lib/security/headers.ts).
import createMiddleware from "next-intl/middleware";
import { NextResponse, type NextRequest } from "next/server";
import { apiAliasTarget, PAGE_FETCH_HEADER } from "@/lib/api/aliases";
import { DEVICE_COOKIE } from "@/lib/auth/cookies";
import { DEVICE_COOKIE_SECONDS, newDevice, verifiedDeviceId } from "@/lib/auth/device";
import { env, isDevelopment } from "@/lib/env";
import { routing } from "@/lib/i18n/routing";
import { newNonce, pageCsp } from "@/lib/security/headers";

const intl = createMiddleware(routing);
// Every URL but the bare "/" names its language (as-needed: no prefix is English). Detection by the
// locale cookie or Accept-Language on those would send an English link to the last language the
// browser saw (/search -> /ar/search after one Arabic page), so it runs on "/" alone; visiting a page
// still records its language in the cookie, which is what "/" then honours.
const intlByUrl = createMiddleware({ ...routing, localeDetection: false });

export default function proxy(request: NextRequest) {
  // An API client calling `/products` gets `/api/products`; the rewrite keeps method, headers and body.
  // Next's own fetches of a page (navigations, prefetches) are pages, never the JSON twin: Next
  // hides their RSC headers and `_rsc` from this function, and their Accept reads as an API
  // client's, so server.ts marks them (PAGE_FETCH_HEADER); otherwise each prefetch of a link to
  // /exhibitions would be answered by the API and spend the visitor's tier (contract 9.5).
  const alias = request.headers.has(PAGE_FETCH_HEADER) ? null : apiAliasTarget(request.nextUrl.pathname, request.headers);
  if (alias) {
    const url = request.nextUrl.clone();
    url.pathname = alias;
    return NextResponse.rewrite(url);
  }
  // CSP with a fresh nonce: Next reads the policy from the request headers while rendering and puts
  // the nonce on its own scripts; the browser gets the same policy on the response.
  const csp = pageCsp(newNonce(), {
    dev: isDevelopment(),
    https: request.nextUrl.protocol === "https:" || env().PUBLIC_URL.startsWith("https://"),
  });
  request.headers.set("content-security-policy", csp);
  const response = (request.nextUrl.pathname === "/" ? intl : intlByUrl)(request);
  response.headers.set("Content-Security-Policy", csp);
  // A missing, forged or unsigned device cookie is replaced by one this server signed.
  if (!verifiedDeviceId(request.cookies.get(DEVICE_COOKIE)?.value)) {
    response.cookies.set(DEVICE_COOKIE, newDevice().value, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: DEVICE_COOKIE_SECONDS,
      secure: request.nextUrl.protocol === "https:",
    });
  }
  return response;
}

export const config = {
  matcher: "/((?!api/|api$|mcp/|mcp$|_next|uploads/|ws/|.*\\..*).*)",
};
