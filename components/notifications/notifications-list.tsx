"use client";

// The /notifications page: every notification of the signed-in account, newest first, with
// "only unread", mark read one by one or all, and paging.
import { useEffect, useState } from "react";
import { useFormatter, useTranslations } from "next-intl";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { Pager } from "@/components/ui/pager";
import { LoadError } from "@/components/ui/load-error";
import { Link } from "@/lib/i18n/navigation";
import { fetchNotifications, markRead, useNotificationText, type NotificationPage } from "./use-notifications";

const LIMIT = 20;

export function NotificationsList() {
  return <SignInGate>{() => <List />}</SignInGate>;
}

function List() {
  const t = useTranslations("Notifications");
  const format = useFormatter();
  const text = useNotificationText();
  const [page, setPage] = useState(1);
  const [onlyUnread, setOnlyUnread] = useState(false);
  const [data, setData] = useState<NotificationPage | null>(null);
  const [failed, setFailed] = useState(false);

  // Bumped to read the page again after marking read.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void fetchNotifications({ page, limit: LIMIT, unread: onlyUnread }).then((r) => {
      if (cancelled) return;
      setFailed(!r.ok);
      if (r.ok) setData(r.data);
    });
    return () => {
      cancelled = true;
    };
  }, [page, onlyUnread, version]);

  const read = async (ids?: string[]) => {
    if ((await markRead(ids)).ok) setVersion((v) => v + 1);
  };

  return (
    <section data-testid="notifications-page">
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={onlyUnread}
            onChange={(e) => {
              setOnlyUnread(e.target.checked);
              setPage(1);
            }}
          />
          {t("onlyUnread")}
        </label>
        <span className="text-sm text-slate-600" aria-live="polite">
          {data ? t("unread", { count: data.unread }) : ""}
        </span>
        {data && data.unread > 0 && (
          <button type="button" onClick={() => void read()} className="ms-auto rounded-lg border border-slate-300 px-3 py-1.5 text-sm">
            {t("markAllRead")}
          </button>
        )}
      </div>
      {failed && <LoadError message={t("loadFailed")} onRetry={() => setVersion((v) => v + 1)} />}
      {!data && !failed && <p className="text-slate-500">{t("loading")}</p>}
      {data && data.notifications.length === 0 && <p className="text-slate-500">{t("empty")}</p>}
      {data && data.notifications.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {data.notifications.map((n) => (
            <li key={n.id} className={`flex flex-wrap items-start gap-2 p-4 ${n.read ? "" : "bg-brand-50"}`} data-testid="notification-item">
              <div className="min-w-0 flex-1">
                <Link href={n.link} className="font-medium break-words hover:text-brand-700" onClick={() => !n.read && void markRead([n.id])}>
                  {!n.read && <span className="sr-only">{t("unreadMark")} </span>}
                  {text(n)}
                </Link>
                {n.body && <p className="mt-1 line-clamp-2 text-sm break-words text-slate-600">{n.body}</p>}
                <p className="mt-1 text-xs text-slate-600">
                  <time dateTime={n.createdAt}>{format.dateTime(new Date(n.createdAt), { dateStyle: "medium", timeStyle: "short" })}</time>
                </p>
              </div>
              {!n.read && (
                <button type="button" onClick={() => void read([n.id])} className="shrink-0 text-sm text-brand-700 underline">
                  {t("markRead")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={page} pages={Math.max(1, Math.ceil(data.total / LIMIT))} onPage={setPage} label={t("pages")} />}
    </section>
  );
}
