"use client";

// What the caller may do with the open offer it received (contract 9.4): counter, decline, and for
// the buyer accept ("Order at this price"). Outcomes stay on screen across the live reloads.
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/field";
import { Link } from "@/lib/i18n/navigation";
import { CounterForm } from "./counter-form";
import { Spinner } from "./spinner";
import type { Offer, Thread } from "./use-thread";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Outcome = { kind: "ordered" | "orderHeld" | "declined" | "countered" | "counterHeld" } | null;

export function OfferActions({ offer, thread, onDone }: { offer: Offer | null; thread: Thread; onDone: () => Promise<void> }) {
  const t = useTranslations("Negotiation");
  const [outcome, setOutcome] = useState<Outcome>(null);
  // A new offer to answer makes the last outcome ("counter-offer sent") old news.
  const [answering, setAnswering] = useState(offer?.id);
  if (offer && offer.id !== answering) {
    setAnswering(offer.id);
    setOutcome(null);
  }
  const ordersHref = thread.side === "buyer" ? "/buyer?tab=orders" : "/seller/orders";
  const accepted = thread.offers.some((o) => o.status === "accepted");
  const last = thread.offers.at(-1);

  return (
    <div className="space-y-4">
      <div aria-live="polite" data-testid="thread-outcome">
        {outcome && (
          <p className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
            {t(`outcome.${outcome.kind}`)}{" "}
            {(outcome.kind === "ordered" || outcome.kind === "orderHeld") && (
              <Link href={ordersHref} className="font-medium underline" data-testid="order-link">
                {t("viewOrders")}
              </Link>
            )}
          </p>
        )}
      </div>
      {offer ? (
        <Answer key={offer.id} offer={offer} thread={thread} onOutcome={(o) => (setOutcome(o), onDone())} />
      ) : accepted ? (
        <p className="rounded-xl border border-green-200 bg-white p-4 text-sm" data-testid="deal-closed">
          {t("dealClosed")}{" "}
          <Link href={ordersHref} className="font-medium text-brand-700 underline">
            {t("viewOrders")}
          </Link>
        </p>
      ) : last?.status === "open" && last.from === thread.side ? (
        <p className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-600">{t("waitingOther")}</p>
      ) : last && last.status !== "pending_guardian_approval" ? (
        <p className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-600">{t("nothingOpen")}</p>
      ) : null}
    </div>
  );
}

function Answer({ offer, thread, onOutcome }: { offer: Offer; thread: Thread; onOutcome: (o: Outcome) => void }) {
  const t = useTranslations("Negotiation");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const [dialog, setDialog] = useState<"accept" | "decline" | null>(null);
  const [busy, setBusy] = useState<"accept" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const money = (n: number) => <Price amount={n} currency={offer.currency} />;

  const explain = (p: Problem) =>
    p.code === "offer_expired"
      ? t("errors.expired")
      : p.code === "invalid_state"
        ? t("errors.noLongerOpen")
        : p.code === "offer_not_orderable"
          ? t("errors.notOrderable")
          : p.code === "network"
            ? t("errors.network")
            : p.detail;

  async function act(kind: "accept" | "decline") {
    setDialog(null);
    setBusy(kind);
    setError(null);
    const r = await apiFetch<{ pendingApproval?: unknown }>(`/api/offers/${encodeURIComponent(offer.id)}/${kind}`, { method: "POST" });
    setBusy(null);
    if (!r.ok) return setError(explain(r.problem));
    onOutcome({ kind: kind === "decline" ? "declined" : r.data.pendingApproval ? "orderHeld" : "ordered" });
  }

  return (
    <section aria-labelledby="answer-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" data-testid="offer-answer">
      <h2 id="answer-heading" className="font-semibold">
        {t("answerHeading")}
      </h2>
      {error && <FormAlert>{error}</FormAlert>}
      <div className="flex flex-wrap gap-3">
        {thread.side === "buyer" && (
          <button
            type="button"
            onClick={() => setDialog("accept")}
            disabled={busy !== null}
            aria-busy={busy === "accept"}
            className="inline-flex items-center gap-2 rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
          >
            {busy === "accept" && <Spinner />}
            {t("orderAtPrice")}
          </button>
        )}
        <button
          type="button"
          onClick={() => setDialog("decline")}
          disabled={busy !== null}
          aria-busy={busy === "decline"}
          className="inline-flex items-center gap-2 rounded-lg border border-red-300 px-4 py-2 font-medium text-red-700 disabled:opacity-60"
        >
          {busy === "decline" && <Spinner />}
          {t("decline")}
        </button>
      </div>
      <CounterForm offer={offer} onCountered={(held) => onOutcome({ kind: held ? "counterHeld" : "countered" })} />
      <ConfirmDialog
        open={dialog === "accept"}
        title={t("acceptTitle")}
        body={fill((m) => t("acceptBody", { price: m.price!, quantity: format.number(offer.quantity), total: m.total! }), {
          price: money(offer.unitPrice),
          total: money(offer.total),
        })}
        confirmLabel={t("orderAtPrice")}
        cancelLabel={tc("cancel")}
        onCancel={() => setDialog(null)}
        onConfirm={() => void act("accept")}
      />
      <ConfirmDialog
        open={dialog === "decline"}
        danger
        title={t("declineTitle")}
        body={t("declineBody")}
        confirmLabel={t("decline")}
        cancelLabel={tc("cancel")}
        onCancel={() => setDialog(null)}
        onConfirm={() => void act("decline")}
      />
    </section>
  );
}
