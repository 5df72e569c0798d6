"use client";

// The signed-in account for every component of a page, from one request: the site's session probe
// (GET /session.json, lib/services/session/probe.ts), which is outside the API tier, so browsing
// never spends a visitor's budget (contract 9.5). The header, the bell and any page body that asks
// share one answer per page load; pages stay cacheable because nothing per-user is rendered on
// the server.
import { useSyncExternalStore } from "react";
import type { SessionProbe, SessionUser } from "@/lib/services/session/probe";

export type Me = SessionUser | null;

/** `me` is undefined while loading; `unread` is null for AI sessions and signed-out visitors. */
export type SessionState = { me: Me | undefined; unread: number | null };

const LOADING: SessionState = { me: undefined, unread: null };
let state: SessionState = LOADING;
let inflight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function publish(next: SessionState) {
  state = next;
  for (const l of listeners) l();
}

/** Read the probe again (after a socket reconnect, or after signing in or out without a reload). */
export function refreshSession(): Promise<void> {
  const request = fetch("/session.json", { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? (r.json() as Promise<SessionProbe>) : null))
    // A failed probe shows the visitor signed out rather than "loading" forever; the API still decides.
    .catch(() => null)
    .then((d) => publish({ me: d?.user ?? null, unread: d?.unread ?? null }));
  inflight = request;
  return request;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!inflight) void refreshSession();
  return () => listeners.delete(listener);
}

/** The bell's count after a socket frame or "mark read" (kept in the shared answer). */
export function setSessionUnread(update: (n: number | null) => number | null) {
  publish({ ...state, unread: update(state.unread) });
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => LOADING,
  );
}

/** The signed-in account (undefined while loading, null when signed out). */
export function useMe(): Me | undefined {
  return useSession().me;
}
