"use client";

// The sellers' requirements board (GET /api/requirements): open purchase requests, newest first,
// filtered by category, budget and currency, each with the store's own latest offer on it and a
// quote form.
import { useFormatter, useNow, useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import type { Me } from "@/components/auth/use-me";
import { apiFetch, type Problem } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { CURRENCIES } from "@/components/ui/money-fields";
import { Pager } from "@/components/ui/pager";
import { AiTag } from "@/components/ui/status-badge";
import { Link } from "@/lib/i18n/navigation";
import { QuoteForm, type SentOffer, type StoreProduct } from "./quote-form";
import { OfferStatus } from "@/components/negotiation/offer-status";
import { CategoryOptions, inputClass, useCategories, useProblemText } from "./rfq-common";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Requirement = {
  id: string;
  title: string;
  description: string;
  budget: number | null;
  currency: string | null;
  quantity: number | null;
  buyer?: { username: string; isAI: boolean };
  sentByAI: boolean;
  createdAt: string;
};
type Own = { offer: SentOffer; held: boolean };
type Filters = { category: string; minBudget: string; maxBudget: string; currency: string };
const LIMIT = 20;
const NO_FILTERS: Filters = { category: "", minBudget: "", maxBudget: "", currency: "" };

export function RequirementsBoard() {
  return <SignInGate>{(me) => <Board me={me} />}</SignInGate>;
}

function Board({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("Rfq");
  const tc = useTranslations("Common");
  const problemText = useProblemText();
  const cats = useCategories();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  // The answer is kept with the query it answers, so a changed query shows "loading" until its own answer arrives.
  const [answer, setAnswer] = useState<{ query: string; data?: { requirements: Requirement[]; total: number }; problem?: Problem } | null>(null);
  const [own, setOwn] = useState<Record<string, Own>>({});
  const [products, setProducts] = useState<StoreProduct[]>([]);

  const q = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  const query = q.toString();
  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ requirements: Requirement[]; total: number }>(`/api/requirements?${query}`).then((r) => {
      if (!cancelled) setAnswer(r.ok ? { query, data: r.data } : { query, problem: r.problem });
    });
    return () => {
      cancelled = true;
    };
  }, [query]);
  const current = answer?.query === query ? answer : null;
  const data = current?.data ?? null;
  const problem = current?.problem ?? null;

  useEffect(() => {
    // The store's latest offer per requirement (newest first, so the first one seen wins).
    void apiFetch<{ offers: (SentOffer & { thread: { requirementId: string | null } })[] }>("/api/offers?as=seller&limit=100").then((r) => {
      if (!r.ok) return;
      const mine: Record<string, Own> = {};
      for (const o of r.data.offers) {
        const rid = o.thread.requirementId;
        if (rid && !mine[rid]) mine[rid] = { offer: o, held: o.status === "pending_guardian_approval" };
      }
      setOwn((prev) => ({ ...mine, ...prev }));
    });
    if (me.sellerProfileId) {
      void apiFetch<{ products: StoreProduct[] }>(`/api/products?sellerId=${me.sellerProfileId}&sort=newest&limit=100`).then(
        (r) => r.ok && setProducts(r.data.products),
      );
    }
  }, [me.sellerProfileId]);

  function apply(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setPage(1);
    setFilters({
      category: String(f.get("category") ?? ""),
      minBudget: String(f.get("minBudget") ?? "").trim(),
      maxBudget: String(f.get("maxBudget") ?? "").trim(),
      currency: String(f.get("currency") ?? ""),
    });
  }

  const pages = data ? Math.max(1, Math.ceil(data.total / LIMIT)) : 1;
  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <form
        onSubmit={apply}
        onReset={() => (setPage(1), setFilters(NO_FILTERS))}
        className="space-y-3 self-start rounded-xl border border-slate-200 bg-white p-4"
        aria-label={t("filters")}
        data-testid="board-filters"
      >
        <h2 className="font-semibold">{t("filters")}</h2>
        <label className="block text-sm font-medium">
          {t("category")}
          <select name="category" className={`${inputClass} border-slate-300`}>
            <option value="">{t("anyCategory")}</option>
            <CategoryOptions cats={cats} />
          </select>
        </label>
        <div className="grid grid-cols-2 gap-2">
          <label className="block text-sm font-medium">
            {t("minBudget")}
            <input name="minBudget" type="number" min={0} step="0.01" inputMode="decimal" className={`${inputClass} border-slate-300`} />
          </label>
          <label className="block text-sm font-medium">
            {t("maxBudget")}
            <input name="maxBudget" type="number" min={0} step="0.01" inputMode="decimal" className={`${inputClass} border-slate-300`} />
          </label>
        </div>
        <label className="block text-sm font-medium">
          {t("currency")}
          <select name="currency" className={`${inputClass} border-slate-300`}>
            <option value="">{t("anyCurrency")}</option>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <div className="flex gap-2">
          <button type="submit" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white">
            {t("apply")}
          </button>
          <button type="reset" className="rounded-lg border border-slate-300 px-4 py-2 text-sm">
            {t("reset")}
          </button>
        </div>
      </form>
      <section aria-live="polite" aria-busy={!data && !problem}>
        {problem ? (
          <FormAlert>{problem.code === "seller_profile_required" ? t("sellerOnly") : problemText(problem)}</FormAlert>
        ) : !data ? (
          <p className="text-slate-500">{tc("loading")}</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600" data-testid="board-count">
              {t("results", { count: data.total })}
            </p>
            {data.requirements.length === 0 ? (
              <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
            ) : (
              <ul className="space-y-3">
                {data.requirements.map((r) => (
                  <Row key={r.id} r={r} own={own[r.id]} products={products} onSent={(o) => setOwn((m) => ({ ...m, [r.id]: o }))} />
                ))}
              </ul>
            )}
            <Pager page={page} pages={pages} onPage={setPage} label={t("title")} />
          </>
        )}
      </section>
    </div>
  );
}

function Row({ r, own, products, onSent }: { r: Requirement; own?: Own; products: StoreProduct[]; onSent: (o: Own) => void }) {
  const t = useTranslations("Rfq");
  const format = useFormatter();
  const now = useNow({ updateInterval: 60_000 });
  const [open, setOpen] = useState(false);
  const formId = `quote-${r.id}`;
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" data-testid="board-requirement">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="min-w-0 font-semibold break-words" dir="auto">
          {r.title}
        </h3>
        <span className="text-xs text-slate-500">{format.relativeTime(new Date(r.createdAt), now)}</span>
      </div>
      {r.description && (
        <p className="mt-1 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-700 [unicode-bidi:plaintext]" dir="auto">
          {r.description}
        </p>
      )}
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div>
          <dt className="inline text-slate-500">{t("wanted")}: </dt>
          <dd className="inline font-medium">{r.quantity === null ? t("notStated") : format.number(r.quantity)}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">{t("budget")}: </dt>
          <dd className="inline font-medium">{r.budget !== null && r.currency ? <Price amount={r.budget} currency={r.currency} /> : t("notStated")}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">{t("buyer")}: </dt>
          <dd className="inline">
            <bdi>{r.buyer?.username ?? "—"}</bdi>
            {r.sentByAI && <AiTag />}
          </dd>
        </div>
      </dl>
      {own && (
        <div className="mt-3 flex flex-wrap items-center gap-2 rounded-lg bg-sky-50 px-3 py-2 text-sm" data-testid="own-offer" role="status">
          <span className="font-medium">
            {fill((m) => t("yourOffer", { price: m.price!, quantity: format.number(own.offer.quantity) }), {
              price: <Price amount={own.offer.unitPrice} currency={own.offer.currency} />,
            })}
          </span>
          <OfferStatus status={own.offer.status} />
          {own.held && <span className="text-amber-900">{t("heldForGuardian")}</span>}
          <Link href={`/offers/${own.offer.id}`} className="ms-auto text-brand-700 underline">
            {t("negotiate")}
          </Link>
        </div>
      )}
      <button
        type="button"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((v) => !v)}
        className="mt-3 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-medium text-brand-700"
      >
        {open ? t("hideQuote") : own ? t("quoteAgain") : t("quote")}
      </button>
      <div id={formId} hidden={!open}>
        {open && (
          <QuoteForm
            requirement={r}
            products={products}
            onSent={(offer, held) => {
              setOpen(false);
              onSent({ offer, held });
            }}
          />
        )}
      </div>
    </li>
  );
}
