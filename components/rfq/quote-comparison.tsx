"use client";

// A buyer's requirement with its quotes side by side (GET /api/buyer/requirements/:id/quotes):
// a table on wide screens, cards on a phone; accepting one places the order at its terms.
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/field";
import { AiTag } from "@/components/ui/status-badge";
import { Link } from "@/lib/i18n/navigation";
import { OfferStatus, type OfferState } from "@/components/negotiation/offer-status";
import { useProblemText } from "./rfq-common";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Offer = {
  id: string;
  from: "buyer" | "seller";
  unitPrice: number;
  currency: string;
  quantity: number;
  total: number;
  validUntil: string;
  status: OfferState;
  awaitingYou: boolean;
  sentByAI: boolean;
};
export type Quote = {
  threadId: string;
  store: { id: string; companyName: string };
  product: { id: string; title: string; moq: number } | null;
  offer: Offer | null;
  converted: { unitPrice: number; total: number } | null;
};
type Comparison = {
  requirement: { id: string; title: string; quantity: number | null; budget: number | null; currency: string | null };
  currency: string;
  quotes: Quote[];
};
type Accepted = { order: { id: string; total: number; currency: string; status: string }; pendingApproval?: { id: string } };

export function QuoteComparison({ id }: { id: string }) {
  return <SignInGate>{() => <Compare id={id} />}</SignInGate>;
}

function Compare({ id }: { id: string }) {
  const t = useTranslations("Rfq");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const problemText = useProblemText();
  const [data, setData] = useState<Comparison | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [version, setVersion] = useState(0);
  const [accepting, setAccepting] = useState<Offer | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Accepted | null>(null);
  const [acceptError, setAcceptError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void apiFetch<Comparison>(`/api/buyer/requirements/${encodeURIComponent(id)}/quotes`).then((r) => {
      if (cancelled) return;
      if (r.ok) setData(r.data);
      else setProblem(r.problem);
    });
    return () => {
      cancelled = true;
    };
  }, [id, version]);

  async function accept(o: Offer) {
    setAccepting(null);
    setBusy(true);
    setAcceptError(null);
    const r = await apiFetch<Accepted>(`/api/offers/${o.id}/accept`, { method: "POST" });
    setBusy(false);
    if (r.ok) setResult(r.data);
    else
      setAcceptError(
        r.problem.code === "offer_not_orderable" ? t("notOrderable") : r.problem.code === "offer_expired" ? t("offerExpired") : problemText(r.problem),
      );
    setVersion((v) => v + 1);
  }

  if (problem) return <FormAlert>{problem.status === 404 ? t("notFound") : problemText(problem)}</FormAlert>;
  if (!data)
    return (
      <p className="text-slate-500" aria-busy="true">
        {tc("loading")}
      </p>
    );
  const req = data.requirement;
  const money = (amount: number, currency: string) => <Price amount={amount} currency={currency} />;
  const expired = (o: Offer) => o.status === "expired" || new Date(o.validUntil) <= new Date();
  const cells = (q: Quote) => {
    const o = q.offer;
    return {
      store: (
        <>
          <bdi className="font-medium">{q.store.companyName}</bdi>
          {o?.sentByAI && <AiTag />}
          {q.product && (
            <div className="text-xs text-slate-500">
              <bdi>{q.product.title}</bdi> · {t("moq", { moq: format.number(q.product.moq) })}
            </div>
          )}
        </>
      ),
      price: o ? (
        <>
          <div className="font-semibold">{money(o.unitPrice, o.currency)}</div>
          {o.currency !== data.currency && (
            <div className="text-xs text-slate-500">{q.converted ? <>≈ {money(q.converted.unitPrice, data.currency)}</> : t("noRate")}</div>
          )}
        </>
      ) : (
        "—"
      ),
      total: o ? (
        <>
          <div>{money(o.total, o.currency)}</div>
          {o.currency !== data.currency && q.converted && <div className="text-xs text-slate-500">≈ {money(q.converted.total, data.currency)}</div>}
        </>
      ) : (
        "—"
      ),
      quantity: o ? (
        <span>
          {format.number(o.quantity)}
          {req.quantity !== null && <span className="text-slate-500"> / {format.number(req.quantity)}</span>}
        </span>
      ) : (
        "—"
      ),
      validity: o ? (
        <span className={expired(o) ? "text-red-700" : undefined}>
          {format.dateTime(new Date(o.validUntil), { dateStyle: "medium" })}
          {expired(o) && <span className="ms-1 font-medium">({t("expired")})</span>}
        </span>
      ) : (
        "—"
      ),
      status: o ? (
        <>
          <OfferStatus status={o.status} />
          {o.from === "buyer" && <div className="text-xs text-slate-500">{t("yourCounter")}</div>}
        </>
      ) : null,
      actions: o ? (
        <div className="flex flex-wrap gap-2">
          <Link href={`/offers/${o.id}`} className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm">
            {t("negotiate")}
          </Link>
          {o.awaitingYou && o.from === "seller" && !expired(o) && (
            <button
              type="button"
              disabled={busy}
              onClick={() => setAccepting(o)}
              className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-60"
            >
              {t("accept")}
            </button>
          )}
        </div>
      ) : null,
    };
  };

  return (
    <div className="space-y-6">
      <div>
        <Link href="/buyer?tab=requirements" className="text-sm text-brand-700 underline">
          {t("back")}
        </Link>
        <h1 className="mt-2 text-3xl font-bold break-words" dir="auto">
          {req.title}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          {t("wanted")}: {req.quantity === null ? t("notStated") : format.number(req.quantity)} · {t("budget")}:{" "}
          {req.budget !== null && req.currency ? money(req.budget, req.currency) : t("notStated")}
        </p>
      </div>
      <div aria-live="polite">
        {busy && <p className="text-slate-500">{t("sending")}</p>}
        {acceptError && <FormAlert>{acceptError}</FormAlert>}
        {result && (
          <div role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900" data-testid="accept-result">
            {result.pendingApproval
              ? t("acceptHeld")
              : fill((m) => t("accepted", { total: m.total! }), { total: money(result.order.total, result.order.currency) })}{" "}
            <Link href="/buyer?tab=orders" className="font-medium underline">
              {t("viewOrders")}
            </Link>
          </div>
        )}
      </div>
      <h2 className="text-xl font-semibold">{t("quotes", { count: data.quotes.length })}</h2>
      {data.quotes.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("noQuotes")}</p>
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white md:block">
            <table className="w-full text-sm">
              <caption className="sr-only">{t("quotes", { count: data.quotes.length })}</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-slate-600">
                <tr>
                  {(["store", "unitPrice", "total", "quantity", "validity", "status", "actions"] as const).map((k) => (
                    <th key={k} scope="col" className="px-3 py-2 text-start font-medium">
                      {t(`col.${k}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.quotes.map((q) => {
                  const c = cells(q);
                  return (
                    <tr key={q.threadId} className="border-b border-slate-100 align-top" data-testid="quote-row">
                      <th scope="row" className="px-3 py-2 text-start font-normal">
                        {c.store}
                      </th>
                      <td className="px-3 py-2">{c.price}</td>
                      <td className="px-3 py-2">{c.total}</td>
                      <td className="px-3 py-2">{c.quantity}</td>
                      <td className="px-3 py-2">{c.validity}</td>
                      <td className="px-3 py-2">{c.status}</td>
                      <td className="px-3 py-2">{c.actions}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <ul className="space-y-3 md:hidden">
            {data.quotes.map((q) => {
              const c = cells(q);
              return (
                <li key={q.threadId} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="quote-card">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">{c.store}</div>
                    {c.status}
                  </div>
                  <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
                    {(["unitPrice", "total", "quantity", "validity"] as const).map((k) => (
                      <div key={k}>
                        <dt className="text-xs text-slate-500">{t(`col.${k}`)}</dt>
                        <dd>{k === "unitPrice" ? c.price : c[k]}</dd>
                      </div>
                    ))}
                  </dl>
                  <div className="mt-3">{c.actions}</div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={accepting !== null}
        title={t("acceptTitle")}
        body={
          accepting &&
          fill((m) => t("acceptBody", { price: m.price!, quantity: format.number(accepting.quantity), total: m.total! }), {
            price: money(accepting.unitPrice, accepting.currency),
            total: money(accepting.total, accepting.currency),
          })
        }
        confirmLabel={t("accept")}
        cancelLabel={tc("cancel")}
        onCancel={() => setAccepting(null)}
        onConfirm={() => accepting && void accept(accepting)}
      />
    </div>
  );
}
