// Where to go after signing in: a safe local callbackUrl, else the role's landing page
// (spec 5.1: an AI_SELLER lands on /seller, everyone else on the home page).
export async function afterSignIn(callbackUrl?: string): Promise<void> {
  let target = "/";
  if (callbackUrl && callbackUrl.startsWith("/") && !callbackUrl.startsWith("//")) {
    target = callbackUrl;
  } else {
    const me = await fetch("/api/auth/me", { cache: "no-store" })
      .then((r) => r.json() as Promise<{ user: { role: string } | null }>)
      .catch(() => ({ user: null }));
    if (me.user?.role === "AI_SELLER") target = "/seller";
  }
  const prefix = window.location.pathname.match(/^\/(zh|ar|es|fr|de|ru|ja|ko|pt|hi|tr|th|id|vi)(?=\/|$)/)?.[0] ?? "";
  window.location.assign(target.startsWith(prefix + "/") || !prefix ? target : `${prefix}${target === "/" ? "" : target}`);
}
