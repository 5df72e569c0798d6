"use client";

import { useFormatter, useNow, useTranslations } from "next-intl";
import { Fragment, useEffect, useState, type ReactNode } from "react";
import { refreshSession } from "@/components/auth/use-me";
import { apiFetch } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Amount = { amount: number; currency: string };
type Tier = { minQty: number; unitPrice: number };
type Approval = {
  id: string;
  aiUsername?: string;
  kind: "order" | "quote" | "price" | "task";
  summary: {
    item: string;
    rule: string;
    ruleCode?: "threshold" | "store24h" | "monthlyBudget" | "discount";
    ruleParams?: Record<string, string>;
    quantity?: number;
    unitPrice?: number;
    listPrice?: number;
    total?: number;
    currency?: string;
    counterparty?: { name: string };
    converted?: Amount;
    price?: { old: Amount; new: Amount; reference: Amount; newInReference: number };
    tiers?: { old: Tier[]; new: Tier[] };
    quote?: { inquiryId: string; inquiryMessage: string; message: string };
  };
  reason: string | null;
  status: "pending" | "approved" | "rejected" | "expired";
  createdAt: string;
  expiresAt: string;
};

/** What the guardian's AI accounts are waiting on, with approve/reject (confirmed first). */
export function ApprovalsQueue({ onDecided }: { onDecided: () => void }) {
  const t = useTranslations("AiAccounts");
  const tf = useTranslations("Flows");
  const tc = useTranslations("Common");
  const format = useFormatter();
  // relativeTime needs a "now": without one next-intl logs ENVIRONMENT_FALLBACK on every render (the
  // client provider has no global now, so server and browser would disagree).
  const now = useNow({ updateInterval: 30_000 });
  const [showDecided, setShowDecided] = useState(false);
  const [items, setItems] = useState<Approval[] | null>(null);
  const [pending, setPending] = useState<{ id: string; decision: "approve" | "reject" } | null>(null);
  const [error, setError] = useState(false);
  // What the last decision did, said where a screen reader hears it: the item leaves the queue.
  const [done, setDone] = useState<string | null>(null);

  const [version, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ approvals: Approval[] }>(`/api/ai/approvals?limit=50${showDecided ? "" : "&status=pending"}`).then((r) => {
      if (cancelled) return;
      setError(!r.ok);
      if (r.ok) setItems(r.data.approvals);
    });
    return () => {
      cancelled = true;
    };
  }, [showDecided, version]);

  async function decide() {
    if (!pending) return;
    const { id, decision } = pending;
    const item = items?.find((a) => a.id === id);
    setPending(null);
    setDone(null);
    const r = await apiFetch(`/api/ai/approvals/${encodeURIComponent(id)}/${decision}`, { method: "POST" });
    setError(!r.ok);
    if (r.ok && item) setDone(tf(`decided.${decision}.${item.kind}`, { item: item.summary.item }));
    setVersion((v) => v + 1);
    onDecided();
    // Deciding settles the request's notification (server side): the bell reads the count again.
    if (r.ok) void refreshSession();
  }

  // A price is a <Price> element (its own bidi isolate), in a cell and inside a translated sentence alike.
  const cell = (v: number | string | undefined, currency?: string): ReactNode =>
    v === undefined ? "—" : currency ? <Price amount={Number(v)} currency={currency} /> : format.number(Number(v));
  const amount = (a: Amount) => cell(a.amount, a.currency);
  const tierList = (tiers: Tier[], currency: string) =>
    tiers.length
      ? tiers.map((x, i) => (
          <Fragment key={i}>
            {i > 0 && " · "}
            {fill((m) => t("tierItem", { minQty: x.minQty, price: m.price! }), { price: cell(x.unitPrice, currency) })}
          </Fragment>
        ))
      : t("noTiers");
  // Why it is held, in the page's language, from the rule's code and figures (the English text otherwise).
  const ruleText = (s: Approval["summary"]): ReactNode => {
    const p = s.ruleParams;
    if (!s.ruleCode || !p) return s.rule;
    if (s.ruleCode === "discount") {
      const pct = (v: string | undefined) => format.number(Number(v) / 100, { style: "percent", maximumFractionDigits: 2 });
      return fill((m) => t("ruleDiscount", { offered: m.offered!, reference: m.reference!, percent: pct(p.percent), max: pct(p.max) }), {
        offered: cell(p.offered, p.offeredCurrency),
        reference: cell(p.reference, p.referenceCurrency),
      });
    }
    const mc = p.mandateCurrency;
    const key = { threshold: "ruleThreshold", store24h: "ruleStore24h", monthlyBudget: "ruleMonthlyBudget" } as const;
    return fill((m) => t(key[s.ruleCode as keyof typeof key], { converted: m.converted!, sum: m.sum!, limit: m.limit! }), {
      converted: cell(p.converted, mc),
      sum: cell(p.sum, mc),
      limit: cell(p.limit, mc),
    });
  };
  const kindLabel = { order: t("kindOrder"), quote: t("kindQuote"), price: t("kindPrice"), task: t("kindTask") };
  const statusLabel = { pending: t("statusPending"), approved: t("statusApproved"), rejected: t("statusRejected"), expired: t("statusExpired") };

  return (
    <section aria-labelledby="approvals-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="approvals">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="approvals-title" className="text-lg font-semibold">
          {t("approvalsTitle")}
        </h2>
        <label className="ms-auto flex items-center gap-2 text-sm">
          <input type="checkbox" checked={showDecided} onChange={(e) => setShowDecided(e.target.checked)} />
          {t("showDecided")}
        </label>
      </div>
      <p role="status" className={done ? "mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800" : "sr-only"} data-testid="approval-done">
        {done && <bdi>{done}</bdi>}
      </p>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {tc("errorGeneric")}
        </p>
      )}
      {items === null ? (
        <p className="mt-4 text-sm text-slate-500">{tc("loading")}</p>
      ) : items.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">{t("approvalsEmpty")}</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {items.map((a) => (
            <li key={a.id} className="rounded-lg border border-slate-200 p-4" data-testid="approval">
              <div className="flex flex-wrap items-center gap-2">
                <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold">{kindLabel[a.kind]}</span>
                <bdi className="font-medium">{a.summary.item}</bdi>
                <span className="font-mono text-xs text-slate-500 [overflow-wrap:anywhere]" dir="ltr">
                  {a.aiUsername}
                </span>
                <span className="ms-auto text-xs text-slate-500">{statusLabel[a.status]}</span>
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                {a.summary.price ? (
                  <>
                    <dt className="text-slate-500">{t("oldPrice")}</dt>
                    <dd>{amount(a.summary.price.old)}</dd>
                    <dt className="text-slate-500">{t("newPrice")}</dt>
                    <dd className="font-semibold">{amount(a.summary.price.new)}</dd>
                    <dt className="text-slate-500">{t("referencePrice")}</dt>
                    <dd>{amount(a.summary.price.reference)}</dd>
                    {a.summary.price.new.currency !== a.summary.price.reference.currency && (
                      <>
                        <dt className="text-slate-500">{t("inReference")}</dt>
                        <dd>{cell(a.summary.price.newInReference, a.summary.price.reference.currency)}</dd>
                      </>
                    )}
                  </>
                ) : (
                  <>
                    <dt className="text-slate-500">{t("quantity")}</dt>
                    <dd>{a.summary.quantity === undefined ? "—" : format.number(a.summary.quantity)}</dd>
                    <dt className="text-slate-500">{t("unitPrice")}</dt>
                    <dd data-testid="approval-unit-price">{cell(a.summary.unitPrice, a.summary.currency)}</dd>
                    <dt className="text-slate-500">{t("total")}</dt>
                    <dd className="font-semibold" data-testid="approval-total">
                      {cell(a.summary.total, a.summary.currency)}
                    </dd>
                    {a.summary.converted && a.summary.converted.currency !== a.summary.currency && (
                      <>
                        <dt className="text-slate-500">{t("convertedTotal")}</dt>
                        <dd className="font-semibold" data-testid="approval-converted">
                          {amount(a.summary.converted)}
                        </dd>
                      </>
                    )}
                  </>
                )}
                <dt className="text-slate-500">{t("counterparty")}</dt>
                <dd>
                  <bdi>{a.summary.counterparty?.name ?? "—"}</bdi>
                </dd>
              </dl>
              {a.summary.tiers && a.summary.price && (
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="approval-tiers">
                  <dt className="text-slate-500">{t("tiersOld")}</dt>
                  <dd>{tierList(a.summary.tiers.old, a.summary.price.old.currency)}</dd>
                  <dt className="text-slate-500">{t("tiersNew")}</dt>
                  <dd className="font-semibold">{tierList(a.summary.tiers.new, a.summary.price.new.currency)}</dd>
                </dl>
              )}
              {a.summary.quote && (
                <div className="mt-2 space-y-1 text-sm">
                  <p>
                    <span className="text-slate-500">{t("inquiryAsked")}: </span>
                    <q dir="auto">{a.summary.quote.inquiryMessage}</q>
                  </p>
                  <p>
                    <span className="text-slate-500">{t("quoteText")}: </span>
                    <q dir="auto">{a.summary.quote.message}</q>
                  </p>
                </div>
              )}
              <p className="mt-2 text-sm" data-testid="approval-rule">
                <span className="text-slate-500">{t("rule")}: </span>
                {ruleText(a.summary)}
              </p>
              {a.reason && (
                <p className="mt-1 text-sm">
                  <span className="text-slate-500">{t("agentReason")}: </span>
                  <q dir="auto">{a.reason}</q>
                </p>
              )}
              {a.status === "pending" && (
                <div className="mt-3 flex flex-wrap items-center gap-2">
                  <button
                    type="button"
                    onClick={() => setPending({ id: a.id, decision: "approve" })}
                    className="rounded-lg bg-green-600 px-3 py-1.5 text-sm font-medium text-white"
                  >
                    {t("approve")}
                  </button>
                  <button
                    type="button"
                    onClick={() => setPending({ id: a.id, decision: "reject" })}
                    className="rounded-lg border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700"
                  >
                    {t("reject")}
                  </button>
                  <span className="text-xs text-slate-500">{t("expires", { time: format.relativeTime(new Date(a.expiresAt), now) })}</span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={pending !== null}
        danger={pending?.decision === "reject"}
        title={pending?.decision === "reject" ? t("rejectConfirm") : t("approveConfirm")}
        confirmLabel={pending?.decision === "reject" ? t("reject") : t("approve")}
        cancelLabel={tc("cancel")}
        onCancel={() => setPending(null)}
        onConfirm={() => void decide()}
      />
    </section>
  );
}
