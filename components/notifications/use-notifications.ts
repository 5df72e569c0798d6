"use client";

// The signed-in person's notifications in the browser: the unread count (from the page's one
// session probe, then kept live from the chat socket's `notification` frames) and a page of the
// list on demand. Nothing here spends the API tier on a page view (contract 9.5).
import { useCallback, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { refreshSession, setSessionUnread, useSession } from "@/components/auth/use-me";
import { connectChat } from "@/components/chat/chat-client";
import { apiFetch } from "@/components/lib/api-client";
import type { NotificationView } from "@/lib/schemas/notifications";

export type NotificationPage = { notifications: NotificationView[]; page: number; limit: number; total: number; unread: number };

/**
 * Unread count, live. `live`: keep it from a socket (people). AI sessions get no count from the
 * probe (their reads are audited as notification.list): theirs comes from the API on page load.
 */
export function useUnreadCount(live: boolean) {
  const { unread } = useSession();
  const [bump, setBump] = useState(0);
  const setUnread = useCallback((n: number) => setSessionUnread(() => n), []);
  useEffect(() => {
    if (live) return;
    let cancelled = false;
    void apiFetch<{ unread: number }>("/api/notifications/unread-count").then((r) => !cancelled && r.ok && setUnread(r.data.unread));
    return () => {
      cancelled = true;
    };
  }, [live, setUnread]);
  useEffect(() => {
    if (!live) return;
    let readies = 0;
    const socket = connectChat(
      (f) => {
        if (f.type === "notification") {
          setSessionUnread((n) => (n ?? 0) + 1);
          setBump((b) => b + 1);
        }
        // After a reconnect, frames sent meanwhile are lost: read the count again (the first
        // "ready" follows the probe this page already made).
        if (f.type === "ready" && readies++ > 0) void refreshSession();
      },
      () => {},
    );
    return () => socket.close();
  }, [live]);
  return { unread, setUnread, bump };
}

export async function fetchNotifications(q: { page?: number; limit?: number; unread?: boolean }) {
  const params = new URLSearchParams({ page: String(q.page ?? 1), limit: String(q.limit ?? 20) });
  if (q.unread) params.set("unread", "true");
  return apiFetch<NotificationPage>(`/api/notifications?${params}`);
}

export async function markRead(ids?: string[]) {
  return apiFetch<{ unread: number }>("/api/notifications/read", { json: ids ? { ids } : {} });
}

/** The notification's text in the page's language (from `event` + `params`), or its English title. */
export function useNotificationText() {
  const typed = useTranslations("Notifications");
  // Event keys come from the data (offers and later kinds add theirs): looked up as plain strings.
  const t = typed as unknown as { has: (key: string) => boolean; (key: string, values: Record<string, string | number>): string };
  return (n: NotificationView) => {
    const key = `events.${n.event}`;
    try {
      return t.has(key) ? t(key, n.params) : n.title;
    } catch {
      return n.title;
    }
  };
}
