"use client";

import { useSearchParams } from "next/navigation";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { NegotiateLink } from "@/components/negotiation/negotiate-link";
import { AiTag, StatusBadge } from "@/components/ui/status-badge";
import { BuyerRequirements as Requirements } from "@/components/rfq/buyer-requirements";
import { Link } from "@/lib/i18n/navigation";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Reply = {
  id: string;
  message: string;
  quotedPrice: number | null;
  currency: string | null;
  offerId: string | null;
  sentByAI: boolean;
  createdAt: string;
};
type Inquiry = {
  id: string;
  product: { id: string; title: string };
  seller: { companyName: string };
  message: string;
  status: string;
  sentByAI: boolean;
  createdAt: string;
  replies: Reply[];
};
type Order = {
  id: string;
  product: { id: string; title: string };
  seller: { companyName: string };
  quantity: number;
  total: number;
  currency: string;
  status: string;
  sentByAI: boolean;
  createdAt: string;
};

/** The buyer's area: inquiries with replies, purchase requirements, orders. */
export function BuyerArea() {
  return <SignInGate>{() => <Sections />}</SignInGate>;
}

function Sections() {
  const t = useTranslations("Buyer");
  const tab = useSearchParams().get("tab");
  const [active, setActive] = useState<"inquiries" | "requirements" | "orders">(tab === "orders" || tab === "requirements" ? tab : "inquiries");
  return (
    <div>
      <div role="tablist" aria-label={t("title")} className="mb-6 flex gap-2 border-b border-slate-200">
        {(["inquiries", "requirements", "orders"] as const).map((k) => (
          <button
            key={k}
            role="tab"
            aria-selected={active === k}
            onClick={() => setActive(k)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${active === k ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600"}`}
          >
            {t(k)}
          </button>
        ))}
      </div>
      <div role="tabpanel">{active === "inquiries" ? <Inquiries /> : active === "requirements" ? <Requirements /> : <Orders />}</div>
    </div>
  );
}

function useList<T>(url: string, key: string, version: number) {
  const [items, setItems] = useState<T[] | null>(null);
  useEffect(() => {
    let cancelled = false;
    void apiFetch<Record<string, T[]>>(url).then((r) => !cancelled && setItems(r.ok ? (r.data[key] ?? []) : []));
    return () => {
      cancelled = true;
    };
  }, [url, key, version]);
  return items;
}

function Inquiries() {
  const t = useTranslations("Buyer");
  const tc = useTranslations("Common");
  const [version, setVersion] = useState(0);
  const [closing, setClosing] = useState<string | null>(null);
  const items = useList<Inquiry>("/api/buyer/inquiries?limit=100", "inquiries", version);
  if (!items) return <p className="text-slate-500">{tc("loading")}</p>;
  if (!items.length)
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
        {t("noInquiries")}{" "}
        <Link href="/search" className="text-brand-700 underline">
          {t("browse")}
        </Link>
      </p>
    );
  return (
    <ul className="space-y-4">
      {items.map((i) => (
        <li key={i.id} className="rounded-xl border border-slate-200 bg-white p-5" data-testid="buyer-inquiry">
          <div className="flex flex-wrap items-center gap-3">
            <Link href={`/products/${i.product.id}`} className="font-semibold text-brand-700 hover:underline" dir="auto">
              {i.product.title}
            </Link>
            <bdi className="text-sm text-slate-500">{i.seller.companyName}</bdi>
            <StatusBadge status={i.status} />
            {i.status !== "closed" && (
              <button type="button" onClick={() => setClosing(i.id)} className="ms-auto text-sm text-slate-600 underline">
                {t("closeInquiry")}
              </button>
            )}
          </div>
          <p className="mt-2 whitespace-pre-line text-sm text-slate-800 [unicode-bidi:plaintext]" dir="auto">
            {i.message}
            {i.sentByAI && <AiTag />}
          </p>
          <div className="mt-3 space-y-2 border-s-2 border-brand-100 ps-4">
            {i.replies.length === 0 ? (
              <p className="text-sm text-slate-500">{t("noReplies")}</p>
            ) : (
              i.replies.map((r) => (
                <div key={r.id} className="text-sm" data-testid="inquiry-reply">
                  <p className="font-medium text-slate-700">
                    {t("reply")}
                    {r.sentByAI && <AiTag />}
                  </p>
                  <p className="whitespace-pre-line [unicode-bidi:plaintext]" dir="auto">
                    {r.message}
                  </p>
                  {r.quotedPrice !== null && r.currency && (
                    <p className="font-semibold text-green-800">
                      {fill((m) => t("quote", { price: m.price! }), { price: <Price amount={r.quotedPrice} currency={r.currency} /> })}
                    </p>
                  )}
                  {r.offerId && <NegotiateLink offerId={r.offerId} />}
                </div>
              ))
            )}
          </div>
        </li>
      ))}
      <ConfirmDialog
        open={closing !== null}
        title={t("closeConfirm")}
        confirmLabel={t("closeInquiry")}
        cancelLabel={tc("cancel")}
        onCancel={() => setClosing(null)}
        onConfirm={() => {
          const id = closing;
          setClosing(null);
          if (id) void apiFetch(`/api/buyer/inquiries/${id}/close`, { method: "POST" }).then(() => setVersion((v) => v + 1));
        }}
      />
    </ul>
  );
}

function Orders() {
  const t = useTranslations("Buyer");
  const tc = useTranslations("Common");
  const format = useFormatter();
  const [version, setVersion] = useState(0);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const items = useList<Order>("/api/orders?as=buyer&limit=100", "orders", version);
  if (!items) return <p className="text-slate-500">{tc("loading")}</p>;
  if (!items.length) return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("noOrders")}</p>;
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[40rem] text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-slate-600">
          <tr>
            <th className="px-4 py-2 text-start font-medium">{t("orders")}</th>
            <th className="px-4 py-2 text-start font-medium">{t("supplier")}</th>
            <th className="px-4 py-2 text-start font-medium">{t("quantity")}</th>
            <th className="px-4 py-2 text-start font-medium">{t("total")}</th>
            <th className="px-4 py-2 text-start font-medium" />
          </tr>
        </thead>
        <tbody>
          {items.map((o) => (
            <tr key={o.id} className="border-b border-slate-100" data-testid="buyer-order">
              <td className="px-4 py-2">
                <Link href={`/products/${o.product.id}`} className="text-brand-700 hover:underline" dir="auto">
                  {o.product.title}
                </Link>
                {o.sentByAI && <AiTag />}
                <div className="mt-1">
                  <StatusBadge status={o.status} />
                </div>
              </td>
              <td className="px-4 py-2">
                <bdi>{o.seller.companyName}</bdi>
              </td>
              <td className="px-4 py-2">{format.number(o.quantity)}</td>
              <td className="px-4 py-2 font-medium">
                <Price amount={o.total} currency={o.currency} />
              </td>
              <td className="px-4 py-2 text-end">
                {(o.status === "placed" || o.status === "pending_guardian_approval") && (
                  <button type="button" onClick={() => setCancelling(o.id)} className="text-red-700 underline">
                    {t("cancelOrder")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={cancelling !== null}
        danger
        title={t("cancelConfirm")}
        confirmLabel={t("cancelOrder")}
        cancelLabel={tc("cancel")}
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          const id = cancelling;
          setCancelling(null);
          if (id) void apiFetch(`/api/orders/${id}/cancel`, { method: "POST" }).then(() => setVersion((v) => v + 1));
        }}
      />
    </div>
  );
}
