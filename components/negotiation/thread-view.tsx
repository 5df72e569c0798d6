"use client";

// The negotiation page (/offers/[id]): every offer of the thread as a conversation, and the
// answers to the open offer the caller received (./offer-actions.tsx). Live through ./use-thread.ts.
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { AiTag } from "@/components/ui/status-badge";
import { Link } from "@/lib/i18n/navigation";
import { OfferActions } from "./offer-actions";
import { OfferStatus } from "./offer-status";
import { useThread, type Offer, type Thread } from "./use-thread";
import { Price, priceText } from "@/components/ui/price";

export function ThreadView({ offerId }: { offerId: string }) {
  return <SignInGate>{() => <Negotiation offerId={offerId} />}</SignInGate>;
}

function Negotiation({ offerId }: { offerId: string }) {
  const t = useTranslations("Negotiation");
  const tc = useTranslations("Common");
  const { detail, problem, reload } = useThread(offerId);
  const announced = useAnnouncer(detail?.thread);

  if (problem && !detail) {
    return (
      <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-800" data-testid="thread-error">
        {problem.status === 404 ? t("notFound") : t("loadFailed")}{" "}
        <Link href="/offers" className="underline">
          {t("backToList")}
        </Link>
      </p>
    );
  }
  if (!detail) return <p className="text-slate-500">{tc("loading")}</p>;
  const { thread } = detail;
  const open = thread.offers.find((o) => o.awaitingYou) ?? null;
  const productId = thread.offers.findLast((o) => o.productId)?.productId ?? null;

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="thread-heading" className="min-w-0">
        <ThreadHead thread={thread} productId={productId} />
        <h2 id="thread-heading" className="sr-only">
          {t("conversation")}
        </h2>
        <span className="sr-only" aria-live="polite" data-testid="thread-announcer">
          {announced}
        </span>
        {thread.offers.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">{t("noOffers")}</p>
        ) : (
          <ol className="space-y-3" data-testid="thread-offers">
            {thread.offers.map((o) => (
              <OfferItem key={o.id} offer={o} thread={thread} />
            ))}
          </ol>
        )}
      </section>
      <aside className="min-w-0">
        <OfferActions offer={open} thread={thread} onDone={reload} />
      </aside>
    </div>
  );
}

function ThreadHead({ thread, productId }: { thread: Thread; productId: string | null }) {
  const t = useTranslations("Negotiation");
  const counterparty = thread.side === "buyer" ? thread.store.companyName : thread.buyer.username;
  return (
    <div className="mb-4 rounded-xl border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-500">{thread.subject.type === "inquiry" ? t("aboutInquiry") : t("aboutRequirement")}</p>
      <p className="font-semibold">
        {productId ? (
          <Link href={`/products/${productId}`} className="text-brand-700 hover:underline" data-testid="thread-product">
            <bdi>{thread.subject.title}</bdi>
          </Link>
        ) : (
          <bdi>{thread.subject.title}</bdi>
        )}
      </p>
      <p className="mt-1 text-sm text-slate-700" data-testid="thread-counterparty">
        {thread.side === "buyer" ? t("withStore") : t("withBuyer")}: <bdi className="font-medium">{counterparty}</bdi>
        {thread.side === "seller" && thread.buyer.isAI && <AiTag />}
      </p>
    </div>
  );
}

function OfferItem({ offer: o, thread }: { offer: Offer; thread: Thread }) {
  const t = useTranslations("Negotiation");
  const format = useFormatter();
  const mine = o.from === thread.side;
  const who = mine ? t("you") : o.from === "seller" ? thread.store.companyName : thread.buyer.username;
  const money = (n: number) => <Price amount={n} currency={o.currency} />;
  return (
    <li
      className={`rounded-xl border p-4 ${mine ? "ms-6 border-brand-100 bg-brand-50" : "me-6 border-slate-200 bg-white"}`}
      data-testid="thread-offer"
      data-status={o.status}
      data-from={o.from}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          <bdi>{who}</bdi>
        </span>
        {o.sentByAI && <AiTag />}
        <OfferStatus status={o.status} />
        <time dateTime={o.createdAt} className="ms-auto text-xs text-slate-600">
          {format.dateTime(new Date(o.createdAt), { dateStyle: "medium", timeStyle: "short" })}
        </time>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600">{t("unitPrice")}</dt>
          <dd className="font-semibold" data-testid="offer-unit-price">
            {money(o.unitPrice)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t("quantity")}</dt>
          <dd data-testid="offer-quantity">{format.number(o.quantity)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t("total")}</dt>
          <dd className="font-semibold" data-testid="offer-total">
            {money(o.total)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t("validUntil")}</dt>
          <dd>
            <time dateTime={o.validUntil}>{format.dateTime(new Date(o.validUntil), { dateStyle: "medium" })}</time>
          </dd>
        </div>
      </dl>
      {o.message && (
        <p dir="auto" className="mt-2 whitespace-pre-line break-words text-sm text-slate-800 [unicode-bidi:plaintext]" data-testid="offer-message">
          {o.message}
        </p>
      )}
      {o.status === "pending_guardian_approval" && <p className="mt-2 text-sm text-amber-900">{t("waitingGuardian")}</p>}
    </li>
  );
}

/** A sentence for screen readers when an offer from the other side arrives while the page is open. */
function useAnnouncer(thread: Thread | undefined) {
  const t = useTranslations("Negotiation");
  const format = useFormatter();
  const locale = useLocale();
  const seen = useRef<Set<string> | null>(null);
  const [text, setText] = useState("");
  useEffect(() => {
    if (!thread) return;
    const ids = new Set(thread.offers.map((o) => o.id));
    const before = seen.current;
    seen.current = ids;
    if (!before) return;
    const fresh = thread.offers.filter((o) => !before.has(o.id) && o.from !== thread.side);
    const last = fresh.at(-1);
    if (last) setText(t("newOffer", { price: priceText(locale, last.unitPrice, last.currency), quantity: format.number(last.quantity) }));
  }, [thread, t, format, locale]);
  return text;
}
