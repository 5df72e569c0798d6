// Where to go after signing in: a safe local callbackUrl, else the role's landing page
// (spec 5.1: an AI_SELLER lands on /seller, everyone else on the home page).
export async function afterSignIn(callbackUrl?: string): Promise<void> {
  let target = "/";
  const local = localPath(callbackUrl);
  if (local) {
    target = local;
  } else {
    // The session probe, not /api/auth/me: signing in spends no API tier either (contract 9.5).
    const me = await fetch("/session.json", { cache: "no-store" })
      .then((r) => r.json() as Promise<{ user: { role: string } | null }>)
      .catch(() => ({ user: null }));
    if (me.user?.role === "AI_SELLER") target = "/seller";
  }
  const prefix = window.location.pathname.match(/^\/(zh|ar|es|fr|de|ru|ja|ko|pt|hi|tr|th|id|vi)(?=\/|$)/)?.[0] ?? "";
  window.location.assign(target.startsWith(prefix + "/") || !prefix ? target : `${prefix}${target === "/" ? "" : target}`);
}

/**
 * The path of a callbackUrl on this origin, or null. Resolved the way the browser will resolve it,
 * so `/\\evil.example`, `//evil.example`, `javascript:` and absolute URLs of other hosts never pass.
 */
export function localPath(callbackUrl: string | undefined): string | null {
  if (!callbackUrl || !callbackUrl.startsWith("/")) return null;
  try {
    const url = new URL(callbackUrl, window.location.origin);
    return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}
