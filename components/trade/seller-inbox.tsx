"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/field";
import { NegotiateLink } from "@/components/negotiation/negotiate-link";
import { Price } from "@/components/ui/price";
import { AiTag, StatusBadge } from "@/components/ui/status-badge";
import { Link } from "@/lib/i18n/navigation";
import { fill } from "@/components/ui/sentence";

type Reply = { id: string; message: string; quotedPrice: number | null; currency: string | null; offerId: string | null; sentByAI: boolean; status: string };
type Inquiry = {
  id: string;
  product: { id: string; title: string; currency: string };
  buyer: { username: string; isAI: boolean };
  message: string;
  status: string;
  sentByAI: boolean;
  createdAt: string;
  replies: Reply[];
};
type Order = {
  id: string;
  product: { id: string; title: string };
  buyerId: string;
  buyer: { username: string; isAI: boolean };
  unitPrice: number;
  createdAt: string;
  quantity: number;
  total: number;
  currency: string;
  status: string;
  sentByAI: boolean;
  note: string | null;
};

/** The store's inquiry inbox, with reply and optional quote. */
export function SellerInbox() {
  return <SignInGate>{() => <Inbox />}</SignInGate>;
}

function Inbox() {
  const t = useTranslations("SellerInquiries");
  const tc = useTranslations("Common");
  const tb = useTranslations("Buyer");
  const format = useFormatter();
  const [status, setStatus] = useState<"" | "new" | "replied" | "closed">("new");
  const [items, setItems] = useState<Inquiry[] | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ inquiries: Inquiry[] }>(`/api/seller/inquiries?limit=100${status ? `&status=${status}` : ""}`).then((r) => {
      if (cancelled) return;
      setItems(r.ok ? r.data.inquiries : []);
      if (!r.ok) setError(r.problem.detail);
    });
    return () => {
      cancelled = true;
    };
  }, [status, version]);

  async function reply(e: FormEvent<HTMLFormElement>, id: string) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const quote = String(f.get("quotedPrice") ?? "").trim();
    setError(null);
    setNotice(null);
    const r = await apiFetch<{ pendingApproval?: unknown }>(`/api/seller/inquiries/${id}/respond`, {
      json: { message: f.get("message"), ...(quote ? { quotedPrice: Number(quote) } : {}) },
    });
    if (!r.ok) return setError(r.problem.detail);
    if (r.data.pendingApproval) setNotice(t("held"));
    setVersion((v) => v + 1);
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2" role="group" aria-label={t("title")}>
        {(["new", "replied", "closed", ""] as const).map((s) => (
          <button
            key={s || "all"}
            type="button"
            aria-pressed={status === s}
            onClick={() => setStatus(s)}
            className={`rounded-full border px-3 py-1 text-sm ${status === s ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white"}`}
          >
            {s ? <StatusLabel s={s} /> : t("all")}
          </button>
        ))}
      </div>
      {error && <FormAlert>{error}</FormAlert>}
      {notice && (
        <p role="status" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {notice}
        </p>
      )}
      {!items ? (
        <p className="text-slate-500">{tc("loading")}</p>
      ) : !items.length ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="space-y-4">
          {items.map((i) => (
            <li key={i.id} className="rounded-xl border border-slate-200 bg-white p-5" data-testid="seller-inquiry">
              <div className="flex flex-wrap items-center gap-3">
                <Link href={`/products/${i.product.id}`} className="font-semibold text-brand-700 hover:underline" dir="auto">
                  {i.product.title}
                </Link>
                <span className="text-sm text-slate-600">
                  {t("from", { buyer: i.buyer.username })}
                  {i.buyer.isAI && <AiTag />}
                </span>
                <StatusBadge status={i.status} />
                <span className="ms-auto text-xs text-slate-500">{format.dateTime(new Date(i.createdAt), { dateStyle: "medium", timeStyle: "short" })}</span>
              </div>
              <p dir="auto" className="mt-2 whitespace-pre-line text-start text-sm [unicode-bidi:plaintext]">
                {i.message}
              </p>
              {i.replies.map((r) => (
                <div key={r.id} className="mt-2 border-s-2 border-brand-100 ps-3 text-sm">
                  <p className="whitespace-pre-line [unicode-bidi:plaintext]" dir="auto">
                    {r.message}
                    {r.sentByAI && <AiTag />}
                  </p>
                  {r.quotedPrice !== null && r.currency && (
                    <p className="font-medium text-green-800">
                      {fill((m) => tb("quote", { price: m.price! }), { price: <Price amount={r.quotedPrice} currency={r.currency} /> })}
                    </p>
                  )}
                  {r.status !== "visible" && <StatusBadge status={r.status} />}
                  {r.offerId && <NegotiateLink offerId={r.offerId} />}
                </div>
              ))}
              {i.status !== "closed" && (
                <form onSubmit={(e) => void reply(e, i.id)} className="mt-3 grid gap-2 sm:grid-cols-[1fr_10rem_auto]">
                  <label className="sr-only" htmlFor={`m-${i.id}`}>
                    {t("replyLabel")}
                  </label>
                  <textarea
                    id={`m-${i.id}`}
                    name="message"
                    required
                    rows={2}
                    maxLength={5000}
                    placeholder={t("replyLabel")}
                    className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
                  />
                  <label className="text-xs text-slate-600">
                    {t("quoteLabel")} ({i.product.currency})
                    <input
                      name="quotedPrice"
                      type="number"
                      min={0}
                      step="0.01"
                      className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                    />
                  </label>
                  <button type="submit" className="self-end rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white">
                    {t("send")}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function StatusLabel({ s }: { s: "new" | "replied" | "closed" }) {
  const t = useTranslations("Status");
  return <>{t(s)}</>;
}

/** The store's orders: confirm, fulfill, cancel (with confirmation). */
/** The order's number for people: the tail of its id (UUIDv7: the head is its time), as support would read it out. */
const orderNumber = (id: string) => `#${id.replace(/-/g, "").slice(-8).toUpperCase()}`;

export function SellerOrders() {
  return <SignInGate>{() => <OrdersTable />}</SignInGate>;
}

function OrdersTable() {
  const t = useTranslations("SellerOrders");
  const to = useTranslations("SellerOrderTable");
  const tb = useTranslations("Buyer");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const [items, setItems] = useState<Order[] | null>(null);
  const [version, setVersion] = useState(0);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ orders: Order[] }>("/api/orders?as=seller&limit=100").then((r) => {
      if (cancelled) return;
      setItems(r.ok ? r.data.orders : []);
      if (!r.ok) setError(r.problem.detail);
    });
    return () => {
      cancelled = true;
    };
  }, [version]);
  const act = (id: string, action: string) =>
    apiFetch(`/api/orders/${id}/${action}`, { method: "POST" }).then((r) => {
      setError(r.ok ? null : r.problem.detail);
      setVersion((v) => v + 1);
    });
  if (!items) return <p className="text-slate-500">{tc("loading")}</p>;
  return (
    <div className="space-y-3">
      {error && <FormAlert>{error}</FormAlert>}
      {!items.length ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full min-w-[56rem] text-sm" data-testid="seller-orders-table">
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-start font-medium">
                  {to("number")}
                </th>
                <th scope="col" className="px-3 py-2 text-start font-medium">
                  {to("date")}
                </th>
                <th scope="col" className="px-3 py-2 text-start font-medium">
                  {to("product")}
                </th>
                <th scope="col" className="px-3 py-2 text-start font-medium">
                  {t("buyer")}
                </th>
                <th scope="col" className="px-3 py-2 text-end font-medium">
                  {to("unitPrice")}
                </th>
                <th scope="col" className="px-3 py-2 text-end font-medium">
                  {tb("quantity")}
                </th>
                <th scope="col" className="px-3 py-2 text-end font-medium">
                  {tb("total")}
                </th>
                <th scope="col" className="px-3 py-2 text-start font-medium">
                  {to("status")}
                </th>
                {/* Sticky at the inline end: on a phone the table scrolls in its box and the actions stay in view. */}
                <th scope="col" className="sticky end-0 bg-slate-50 px-3 py-2 text-end font-medium">
                  {to("actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.id} className="border-b border-slate-100 align-top" data-testid="seller-order">
                  <td className="whitespace-nowrap px-3 py-2 font-mono text-xs" dir="ltr" data-testid="order-number">
                    {orderNumber(o.id)}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">
                    <time dateTime={o.createdAt}>{format.dateTime(new Date(o.createdAt), { dateStyle: "medium" })}</time>
                  </td>
                  <td className="px-3 py-2">
                    <bdi dir="auto">{o.product.title}</bdi>
                    {o.sentByAI && <AiTag />}
                    {o.note && (
                      <p dir="auto" className="mt-1 text-start text-xs text-slate-500">
                        {o.note}
                      </p>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <bdi dir="auto">{o.buyer.username}</bdi>
                    {o.buyer.isAI && <AiTag />}
                    <Link
                      href={{ pathname: "/chat", query: { to: o.buyerId, productId: o.product.id } }}
                      className="block text-xs text-brand-700 underline"
                      data-testid="contact-buyer"
                    >
                      {to("contactBuyer")}
                    </Link>
                  </td>
                  <td className="px-3 py-2 text-end">
                    <Price amount={o.unitPrice} currency={o.currency} />
                  </td>
                  <td className="px-3 py-2 text-end">{format.number(o.quantity)}</td>
                  <td className="px-3 py-2 text-end font-medium">
                    <Price amount={o.total} currency={o.currency} />
                  </td>
                  <td className="px-3 py-2">
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="sticky end-0 bg-white px-3 py-2 text-end shadow-[-4px_0_4px_-4px_rgba(0,0,0,0.15)]">
                    <div className="flex flex-col items-end gap-1" data-testid="order-actions">
                      {o.status === "placed" && (
                        <button type="button" onClick={() => void act(o.id, "confirm")} className="rounded bg-brand-600 px-3 py-1 text-white">
                          {t("confirm")}
                        </button>
                      )}
                      {o.status === "confirmed" && (
                        <button type="button" onClick={() => void act(o.id, "fulfill")} className="rounded bg-green-600 px-3 py-1 text-white">
                          {t("fulfill")}
                        </button>
                      )}
                      {(o.status === "placed" || o.status === "confirmed") && (
                        <button type="button" onClick={() => setCancelling(o.id)} className="text-red-700 underline">
                          {t("cancel")}
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        danger
        title={t("cancelConfirm")}
        confirmLabel={t("cancel")}
        cancelLabel={tc("cancel")}
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          const id = cancelling;
          setCancelling(null);
          if (id) void act(id, "cancel");
        }}
      />
    </div>
  );
}
