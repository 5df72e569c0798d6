"use client";

// The header's bell: the unread count (announced politely to screen readers, kept live from the
// socket) and a menu of the newest notifications with "mark all read" and a link to the full list.
// Rendered only for signed-in accounts (./use-notifications.ts).
import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { Link } from "@/lib/i18n/navigation";
import type { NotificationView } from "@/lib/schemas/notifications";
import { fetchNotifications, markRead, useNotificationText, useUnreadCount } from "./use-notifications";

export function NotificationBell({ live }: { live: boolean }) {
  const t = useTranslations("Notifications");
  const text = useNotificationText();
  const { unread, setUnread, bump } = useUnreadCount(live);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<NotificationView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    void fetchNotifications({ limit: 6 }).then((r) => {
      if (cancelled) return;
      setFailed(!r.ok);
      if (r.ok) {
        setItems(r.data.notifications);
        setUnread(r.data.unread);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [open, bump, setUnread]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onClick);
    };
  }, [open]);

  const readAll = async () => {
    const r = await markRead();
    if (!r.ok) return;
    setUnread(r.data.unread);
    setItems((list) => list?.map((n) => ({ ...n, read: true })) ?? null);
  };

  const count = unread ?? 0;
  return (
    <div className="relative" ref={root} data-testid="notification-bell">
      <button
        ref={button}
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls="notification-menu"
        aria-label={t("bellLabel", { count })}
        onClick={() => setOpen((o) => !o)}
        className="relative rounded p-1 text-slate-700 hover:text-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.7 21a2 2 0 0 1-3.4 0" />
        </svg>
        {count > 0 && (
          <span
            data-testid="notification-count"
            className="absolute -end-1.5 -top-1.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-semibold text-white"
          >
            {count > 99 ? "99+" : count}
          </span>
        )}
      </button>
      <span className="sr-only" aria-live="polite">
        {unread === null ? "" : t("unread", { count })}
      </span>
      {open && (
        <div
          id="notification-menu"
          role="region"
          aria-label={t("title")}
          className="absolute end-0 z-30 mt-2 w-[min(22rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2">
            <span className="font-semibold">{t("title")}</span>
            {count > 0 && (
              <button type="button" onClick={() => void readAll()} className="text-sm text-brand-700 underline">
                {t("markAllRead")}
              </button>
            )}
          </div>
          {failed ? (
            <p className="px-4 py-3 text-sm text-red-700">{t("loadFailed")}</p>
          ) : items === null ? (
            <p className="px-4 py-3 text-sm text-slate-500">{t("loading")}</p>
          ) : items.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-500">{t("empty")}</p>
          ) : (
            <ul className="max-h-96 overflow-y-auto">
              {items.map((n) => (
                <li key={n.id} className={n.read ? "" : "bg-brand-50"}>
                  <Link
                    href={n.link}
                    onClick={() => void markRead([n.id]).then((r) => r.ok && setUnread(r.data.unread))}
                    className="block px-4 py-2 text-sm hover:bg-slate-50"
                  >
                    {!n.read && <span className="sr-only">{t("unreadMark")} </span>}
                    {text(n)}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <Link
            href="/notifications"
            className="block border-t border-slate-100 px-4 py-2 text-center text-sm text-brand-700 underline"
            onClick={() => setOpen(false)}
          >
            {t("viewAll")}
          </Link>
        </div>
      )}
    </div>
  );
}
