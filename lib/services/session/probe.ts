// The site's own session probe (GET /session.json, contract 9.5): who is signed in to this browser,
// and the unread-notification count, for the page header. Pages stay cacheable (no per-user HTML),
// so the header asks from the browser; this answer is outside the API tier so that browsing never
// spends a visitor's budget. It reads only the session cookie (no Bearer, no API key: API clients
// have /api/auth/me) and still checks the session row, so a revoked session shows signed out.
import { actorFromCookieHeader } from "@/lib/auth/resolve";
import { getDb } from "@/lib/db/client";
import { unreadCount } from "@/lib/services/notify/list";

export type SessionUser = {
  id: string;
  username: string;
  email: string;
  /** Humans: whether the e-mail address is confirmed (AI accounts have none of their own). */
  emailVerified: boolean;
  role: string;
  isAI: boolean;
  sellerProfileId: string | null;
  guardian: { id: string; username: string } | null;
};

/** `unread` is null for AI sessions: their reads of notifications are audited, so they use the API. */
export type SessionProbe = { user: SessionUser | null; unread: number | null };

const SIGNED_OUT: SessionProbe = { user: null, unread: null };

export async function readSessionProbe(cookieHeader: string | null): Promise<SessionProbe> {
  // Most visitors carry no session cookie at all: answered without touching the database.
  if (!cookieHeader?.includes("session-token")) return SIGNED_OUT;
  const db = await getDb();
  const a = await actorFromCookieHeader(db, cookieHeader);
  if (!a) return SIGNED_OUT;
  const user: SessionUser = {
    id: a.user.id,
    username: a.user.username,
    email: a.user.email,
    emailVerified: a.type === "human" && a.user.emailVerified === true,
    role: a.user.role,
    isAI: a.type === "ai",
    sellerProfileId: a.type === "ai" ? a.guardian.sellerProfileId : a.user.sellerProfileId,
    guardian: a.type === "ai" ? { id: a.guardian.id, username: a.guardian.username } : null,
  };
  return { user, unread: a.type === "human" ? await unreadCount(db, a.user.id) : null };
}

/** The HTTP answer: private, never stored, and different per cookie. */
export async function serveSessionProbe(req: Request): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  }
  const body = JSON.stringify(await readSessionProbe(req.headers.get("cookie")));
  return new Response(req.method === "HEAD" ? null : body, {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store", Vary: "Cookie" },
  });
}
