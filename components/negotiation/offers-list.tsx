"use client";

// The caller's negotiations (/offers): GET /api/offers lists offers newest first; we show the newest
// offer of each thread on the page, filtered by status and side, each linking to its thread.
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { Pager } from "@/components/ui/pager";
import { AiTag } from "@/components/ui/status-badge";
import { Link } from "@/lib/i18n/navigation";
import { OFFER_STATUS_VALUES, type OfferPage } from "@/lib/schemas/offers";
import { OfferStatus } from "./offer-status";
import { Price } from "@/components/ui/price";

type Page = z.infer<typeof OfferPage>;
type Status = (typeof OFFER_STATUS_VALUES)[number];
const LIMIT = 20;

export function OffersList() {
  return <SignInGate>{() => <List />}</SignInGate>;
}

function List() {
  const t = useTranslations("Negotiation");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const [status, setStatus] = useState<Status | "">("");
  const [side, setSide] = useState<"buyer" | "seller" | "">("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const q = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
    if (status) q.set("status", status);
    if (side) q.set("as", side);
    void apiFetch<Page>(`/api/offers?${q}`).then((r) => {
      if (cancelled) return;
      setFailed(!r.ok);
      setData(r.ok ? r.data : null);
    });
    return () => {
      cancelled = true;
    };
  }, [status, side, page]);

  // Older offers of a thread already shown on this page add nothing to the list.
  const seen = new Set<string>();
  const rows = (data?.offers ?? []).filter((o) => !seen.has(o.threadId) && seen.add(o.threadId));

  return (
    <div>
      <div className="mb-4 flex flex-wrap gap-4 rounded-xl border border-slate-200 bg-white p-4 text-sm">
        <label className="flex flex-col gap-1">
          {t("filterStatus")}
          <select
            value={status}
            onChange={(e) => (setStatus(e.target.value as Status | ""), setPage(1))}
            className="rounded-lg border border-slate-300 px-3 py-2"
            data-testid="filter-status"
          >
            <option value="">{t("all")}</option>
            {OFFER_STATUS_VALUES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          {t("filterSide")}
          <select
            value={side}
            onChange={(e) => (setSide(e.target.value as "buyer" | "seller" | ""), setPage(1))}
            className="rounded-lg border border-slate-300 px-3 py-2"
            data-testid="filter-side"
          >
            <option value="">{t("all")}</option>
            <option value="buyer">{t("asBuyer")}</option>
            <option value="seller">{t("asSeller")}</option>
          </select>
        </label>
      </div>
      {failed ? (
        <p role="alert" className="text-red-700">
          {t("loadFailed")}
        </p>
      ) : !data ? (
        <p className="text-slate-500">{tc("loading")}</p>
      ) : rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-testid="offers-empty">
          {t("empty")}{" "}
          <Link href="/search" className="text-brand-700 underline">
            {t("browse")}
          </Link>
        </p>
      ) : (
        <ul className="space-y-3">
          {rows.map((o) => (
            <li key={o.id} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="offer-row">
              <div className="flex flex-wrap items-center gap-2">
                <Link href={`/offers/${o.id}`} className="font-semibold text-brand-700 hover:underline">
                  <bdi>{o.thread.subject.title}</bdi>
                </Link>
                <OfferStatus status={o.status} />
                {o.awaitingYou && <span className="rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-medium text-white">{t("yourTurn")}</span>}
              </div>
              <p className="mt-1 text-sm text-slate-700">
                {o.side === "buyer" ? t("withStore") : t("withBuyer")}:{" "}
                <bdi className="font-medium">{o.side === "buyer" ? o.thread.store.companyName : o.thread.buyer.username}</bdi>
              </p>
              <p className="mt-1 text-sm">
                {o.from === o.side ? t("you") : o.from === "seller" ? t("store") : t("buyer")}
                {o.sentByAI && <AiTag />}
                {": "}
                <span className="font-semibold">
                  <Price amount={o.unitPrice} currency={o.currency} /> × {format.number(o.quantity)} = <Price amount={o.total} currency={o.currency} />
                </span>
              </p>
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={data.page} pages={Math.max(1, Math.ceil(data.total / data.limit))} onPage={setPage} label={t("title")} />}
    </div>
  );
}
