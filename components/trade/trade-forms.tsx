"use client";

import { useSearchParams } from "next/navigation";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { Link } from "@/lib/i18n/navigation";
import { Price } from "@/components/ui/price";
import { fill } from "@/components/ui/sentence";

type Product = { id: string; title: string; price: number; currency: string; moq: number; seller: { companyName: string } };

/** Send an inquiry about, or place an order for, one product (`?productId=`). */
export function TradeForm({ mode }: { mode: "inquiry" | "order" }) {
  return <SignInGate>{() => <Form mode={mode} />}</SignInGate>;
}

function Form({ mode }: { mode: "inquiry" | "order" }) {
  const ti = useTranslations("InquiryForm");
  const to = useTranslations("OrderForm");
  const tb = useTranslations("Buyer");
  // The address as the router has it: on an in-app navigation window.location is still the old page.
  const productId = useSearchParams().get("productId");
  const [product, setProduct] = useState<Product | null | undefined>(undefined);
  const [quantity, setQuantity] = useState<number>(1);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!productId) return;
    void apiFetch<{ product: Product }>(`/api/products/${encodeURIComponent(productId)}`).then((r) => {
      setProduct(r.ok ? r.data.product : null);
      if (r.ok) setQuantity(r.data.product.moq);
    });
  }, [productId]);

  if (!productId || product === null) return <FormAlert>{tb("browse")}</FormAlert>;
  if (!product) return <p className="text-slate-500">…</p>;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    const r =
      mode === "inquiry"
        ? await apiFetch("/api/buyer/inquiries", { json: { productId, message: f.get("message") } })
        : await apiFetch<{ order: { status: string } }>("/api/orders", { json: { productId, quantity, note: String(f.get("note") ?? "") || undefined } });
    setPending(false);
    if (!r.ok) {
      const code = r.problem.code;
      return setError(code === "self_trade_forbidden" ? ti("selfTrade") : code === "forbidden" ? ti("ownProduct") : r.problem.detail);
    }
    const held = mode === "order" && (r.data as { order: { status: string } }).order.status === "pending_guardian_approval";
    setDone(mode === "inquiry" ? ti("sent") : held ? to("held") : to("placed"));
  }

  const total = <Price amount={Math.round(product.price * 100 * quantity) / 100} currency={product.currency} />;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="rounded-xl border border-slate-200 bg-white p-5">
        <Link href={`/products/${product.id}`} className="text-lg font-semibold text-brand-700 hover:underline">
          {fill((m) => ti("about", { product: m.product! }), { product: <bdi>{product.title}</bdi> })}
        </Link>
        <p className="text-sm text-slate-600">
          <bdi>{product.seller.companyName}</bdi> · <Price amount={product.price} currency={product.currency} />
        </p>
      </div>
      {done ? (
        <div role="status" className="rounded-xl border border-green-200 bg-green-50 p-5 text-green-900" data-testid="trade-done">
          <p>{done}</p>
          <Link href={{ pathname: "/buyer", query: { tab: mode === "order" ? "orders" : "inquiries" } }} className="mt-3 inline-block font-medium underline">
            {tb("title")}
          </Link>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" data-testid={`${mode}-form`}>
          <h1 className="text-2xl font-bold">{mode === "inquiry" ? ti("title") : to("title")}</h1>
          {error && <FormAlert>{error}</FormAlert>}
          {mode === "inquiry" ? (
            <label className="block text-sm font-medium">
              {ti("message")}
              <textarea
                name="message"
                dir="auto"
                required
                minLength={1}
                maxLength={5000}
                rows={6}
                placeholder={ti("placeholder")}
                className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
          ) : (
            <>
              <label className="block text-sm font-medium">
                {to("quantity")}
                <input
                  name="quantity"
                  type="number"
                  min={product.moq}
                  step={1}
                  required
                  value={quantity}
                  onChange={(e) => setQuantity(Math.max(0, Math.floor(Number(e.target.value))))}
                  aria-describedby="moq-hint"
                  className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
                />
                <span id="moq-hint" className="mt-1 block text-xs text-slate-500">
                  {to("minimum", { count: product.moq })}
                </span>
              </label>
              <label className="block text-sm font-medium">
                {to("note")}
                <textarea name="note" rows={3} maxLength={2000} dir="auto" className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2" />
              </label>
              <p className="text-lg font-semibold" aria-live="polite">
                {fill((m) => to("total", { total: m.total! }), { total })}
              </p>
            </>
          )}
          <button type="submit" disabled={pending} className="rounded-lg bg-brand-600 px-6 py-2.5 font-semibold text-white disabled:opacity-60">
            {pending ? (mode === "inquiry" ? ti("sending") : to("placing")) : mode === "inquiry" ? ti("send") : to("place")}
          </button>
        </form>
      )}
    </div>
  );
}
