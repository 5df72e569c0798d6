"use client";

import { useSearchParams } from "next/navigation";
import { Link } from "@/lib/i18n/navigation";
import { localPath } from "./after-sign-in";

/**
 * The link between sign-in and registration, carrying the page the visitor came from (`callbackUrl`)
 * so that registering from a product still leads back to it. Only a same-site path passes; the
 * pages are static, so the query is read through the router inside a Suspense boundary.
 */
export function AuthSwitchLink({ to, children }: { to: "/register" | "/sign-in"; children: React.ReactNode }) {
  const params = useSearchParams();
  const back = typeof window === "undefined" ? null : localPath(params.get("callbackUrl") ?? undefined);
  return (
    <Link href={back ? { pathname: to, query: { callbackUrl: back } } : to} className="font-medium text-brand-700 underline" data-testid="auth-switch">
      {children}
    </Link>
  );
}
