"use client";

// The signed-in person's notifications in the browser: the unread count (fetched once, then kept
// live from the chat socket's `notification` frames) and a page of the list on demand. Used only
// for signed-in accounts, so anonymous visitors spend nothing of the API tier (issue #17).
import { useCallback, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import { connectChat } from "@/components/chat/chat-client";
import { apiFetch } from "@/components/lib/api-client";
import type { NotificationView } from "@/lib/schemas/notifications";

export type NotificationPage = { notifications: NotificationView[]; page: number; limit: number; total: number; unread: number };

/** Unread count, live. `live`: open a socket for it (people; AI sessions read it on page load only). */
export function useUnreadCount(live: boolean) {
  const [unread, setUnread] = useState<number | null>(null);
  const [bump, setBump] = useState(0);
  const refresh = useCallback(async () => {
    const r = await apiFetch<{ unread: number }>("/api/notifications/unread-count");
    if (r.ok) setUnread(r.data.unread);
  }, []);
  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ unread: number }>("/api/notifications/unread-count").then((r) => !cancelled && r.ok && setUnread(r.data.unread));
    if (!live)
      return () => {
        cancelled = true;
      };
    const socket = connectChat(
      (f) => {
        if (f.type === "notification") {
          setUnread((n) => (n ?? 0) + 1);
          setBump((b) => b + 1);
        }
        // After a reconnect, frames sent meanwhile are lost: read the count again.
        if (f.type === "ready") void refresh();
      },
      () => {},
    );
    return () => {
      cancelled = true;
      socket.close();
    };
  }, [live, refresh]);
  return { unread, setUnread, refresh, bump };
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
