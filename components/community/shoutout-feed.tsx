"use client";

import { useFormatter, useNow, useTranslations } from "next-intl";
import { useEffect, useState, useSyncExternalStore, type FormEvent } from "react";
import { useMe } from "@/components/auth/use-me";
import { apiFetch } from "@/components/lib/api-client";
import { Pager } from "@/components/ui/pager";
import { FormAlert } from "@/components/ui/field";
import { LoadError } from "@/components/ui/load-error";
import { AiTag } from "@/components/ui/status-badge";
import { Link, usePathname } from "@/lib/i18n/navigation";

export type Shoutout = {
  id: string;
  content: string;
  author: { username: string; isAI: boolean };
  product: { id: string; title: string } | null;
  sentByAI: boolean;
  createdAt: string;
};

const noSubscription = () => () => {};

/** `initial`: the first page as the server rendered it, so a page view spends no API call (contract 9.5). */
export function ShoutoutFeed({ initial }: { initial?: { shoutouts: Shoutout[]; total: number } }) {
  const t = useTranslations("Shoutouts");
  const tc = useTranslations("Common");
  const format = useFormatter();
  // An explicit `now` (next-intl reports ENVIRONMENT_FALLBACK without one), refreshed each minute.
  const now = useNow({ updateInterval: 60_000 });
  const me = useMe();
  const pathname = usePathname();
  const [items, setItems] = useState<Shoutout[] | null>(initial?.shoutouts ?? null);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(initial?.total ?? 0);
  const [version, setVersion] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  // "3 minutes ago" depends on the reader's clock: written after hydration, so the server's first
  // page and the browser's agree.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (initial && page === 1 && version === 0) return;
    let cancelled = false;
    void apiFetch<{ shoutouts: Shoutout[]; total: number }>(`/api/shoutout?page=${page}&limit=20`).then((r) => {
      if (cancelled) return;
      if (!r.ok) return setLoadError(r.problem.detail);
      setLoadError(null);
      setItems(r.data.shoutouts);
      setTotal(r.data.total);
    });
    return () => {
      cancelled = true;
    };
  }, [initial, page, version]);

  async function post(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(null);
    const r = await apiFetch("/api/shoutout", { json: { content: text } });
    setPending(false);
    if (!r.ok) return setError(r.problem.detail);
    setText("");
    setPage(1);
    setVersion((v) => v + 1);
  }

  const pages = Math.max(1, Math.ceil(total / 20));
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      {me ? (
        <form onSubmit={post} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="shoutout-form">
          {error && <FormAlert>{error}</FormAlert>}
          <label htmlFor="shoutout" className="sr-only">
            {t("placeholder")}
          </label>
          <textarea
            id="shoutout"
            value={text}
            onChange={(e) => setText(e.target.value.slice(0, 500))}
            rows={3}
            maxLength={500}
            placeholder={t("placeholder")}
            className="w-full rounded-lg border border-slate-300 px-3 py-2"
          />
          <div className="mt-2 flex items-center justify-between">
            <span className="text-xs text-slate-500" aria-live="polite">
              {t("remaining", { count: 500 - text.length })}
            </span>
            <button type="submit" disabled={pending || !text.trim()} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-50">
              {pending ? t("posting") : t("post")}
            </button>
          </div>
        </form>
      ) : me === null ? (
        <Link
          href={{ pathname: "/sign-in", query: { callbackUrl: pathname } }}
          className="inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white"
        >
          {t("signIn")}
        </Link>
      ) : null}
      {loadError ? (
        <LoadError message={loadError} onRetry={() => setVersion((v) => v + 1)} />
      ) : !items ? (
        <p className="text-slate-500">{tc("loading")}</p>
      ) : !items.length ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="space-y-3">
          {items.map((s) => (
            <li key={s.id} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="shoutout">
              <p className="text-sm text-slate-500">
                <bdi className="font-medium text-slate-800">{s.author.username}</bdi>
                {s.sentByAI && <AiTag />} · <time dateTime={s.createdAt}>{hydrated ? format.relativeTime(new Date(s.createdAt), now) : ""}</time>
              </p>
              <p className="mt-1 whitespace-pre-line [unicode-bidi:plaintext]" dir="auto">
                {s.content}
              </p>
              {s.product && (
                <Link href={`/products/${s.product.id}`} className="mt-2 inline-block text-sm text-brand-700 underline" dir="auto">
                  {s.product.title}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} onPage={setPage} label={t("title")} />
    </div>
  );
}
