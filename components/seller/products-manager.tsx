"use client";

import { useSearchParams } from "next/navigation";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import type { Me } from "@/components/auth/use-me";
import { apiFetch } from "@/components/lib/api-client";
import { Price } from "@/components/ui/price";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Link } from "@/lib/i18n/navigation";
import { ProductForm, type EditableProduct } from "./product-form";

type Row = {
  id: string;
  isHidden: boolean;
  title: string;
  price: number;
  currency: string;
  mainImageUrl: string | null;
  boothId: string | null;
  keywords: string[];
  category: string;
  description: string;
  moq: number;
  acceptsOEM: boolean;
  images: string[];
  priceTiers: { minQty: number; unitPrice: number }[];
};

export function ProductsManager() {
  return <SignInGate>{(me) => <ProductList me={me} />}</SignInGate>;
}

function ProductList({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("SellerProducts");
  const ts = useTranslations("Seller");
  const tc = useTranslations("Common");
  const [rows, setRows] = useState<Row[] | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [version, setVersion] = useState(0);
  const store = me.sellerProfileId;

  useEffect(() => {
    if (!store) return;
    let cancelled = false;
    void apiFetch<{ products: Row[] }>(`/api/products?sellerId=${store}&sort=newest&limit=100`).then((r) => !cancelled && r.ok && setRows(r.data.products));
    return () => {
      cancelled = true;
    };
  }, [store, version]);

  if (!store) return <p className="rounded-xl border border-slate-200 bg-white p-6">{ts("noStore")}</p>;
  return (
    <div className="space-y-4">
      <Link href="/seller/products/new" className="inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white" data-testid="new-product">
        {t("new")}
      </Link>
      {rows === null ? (
        <p className="text-slate-500">{tc("loading")}</p>
      ) : rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("empty")}</p>
      ) : (
        // No sticky column: stuck over a table wider than a phone it covered the price ("الس", ".50"). On a phone the
        // table fits instead (no keyword count, actions stacked); the box still scrolls if a language's labels are longer.
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-sm sm:min-w-[36rem]">
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2 text-start font-medium sm:px-4">
                  {t("columns")}
                </th>
                <th scope="col" className="px-3 py-2 text-start font-medium sm:px-4">
                  {t("priceCol")}
                </th>
                <th scope="col" className="hidden px-4 py-2 text-start font-medium sm:table-cell">
                  {t("keywordsLabel")}
                </th>
                <th scope="col" className="px-3 py-2 text-end font-medium sm:px-4">
                  {t("actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="seller-product-row">
                  <td className="px-3 py-2 [overflow-wrap:anywhere] sm:px-4">
                    <Link href={`/seller/products/${r.id}`} className="font-medium text-brand-700 hover:underline">
                      <bdi dir="auto">{r.title}</bdi>
                    </Link>
                    {r.isHidden && <span className="ms-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700">{t("hidden")}</span>}
                  </td>
                  <td className="px-3 py-2 sm:px-4" data-testid="row-price">
                    <Price amount={r.price} currency={r.currency} />
                  </td>
                  <td className="hidden px-4 py-2 sm:table-cell">{r.keywords.length}</td>
                  <td className="px-3 py-2 sm:px-4" data-testid="row-actions">
                    <div className="flex flex-col items-end gap-1 sm:flex-row sm:justify-end sm:gap-3">
                      <Link href={`/products/${r.id}`} className="text-slate-600 underline">
                        {t("view")}
                      </Link>
                      <button
                        type="button"
                        onClick={() =>
                          void apiFetch(`/api/products/${r.id}`, { method: "PUT", json: { isHidden: !r.isHidden } }).then(() => setVersion((v) => v + 1))
                        }
                        className="text-slate-600 underline"
                      >
                        {r.isHidden ? t("unhide") : t("hide")}
                      </button>
                      <button type="button" onClick={() => setDeleting(r)} className="text-red-700 underline">
                        {t("delete")}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        danger
        title={deleting ? t("deleteConfirm", { title: deleting.title }) : ""}
        body={t("deleteBody")}
        confirmLabel={t("delete")}
        cancelLabel={tc("cancel")}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const id = deleting?.id;
          setDeleting(null);
          if (id) void apiFetch(`/api/products/${id}`, { method: "DELETE" }).then(() => setVersion((v) => v + 1));
        }}
      />
    </div>
  );
}

const EMPTY: EditableProduct = {
  title: "",
  description: "",
  price: "",
  currency: "USD",
  category: "",
  moq: 1,
  acceptsOEM: false,
  images: [],
  keywords: [],
  boothId: null,
  priceTiers: [],
};

/** The create form, or the edit form once the product has loaded. */
export function ProductEditor({ id }: { id?: string }) {
  const locale = useLocale();
  const t = useTranslations("SellerProducts");
  const tc = useTranslations("Common");
  const created = useSearchParams().get("created") === "1";
  const [initial, setInitial] = useState<EditableProduct | null>(id ? null : EMPTY);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (!id) return;
    void apiFetch<{ product: Row }>(`/api/products/${id}`).then((r) => {
      if (!r.ok) return setMissing(true);
      const p = r.data.product;
      setInitial({
        id: p.id,
        title: p.title,
        description: p.description,
        price: p.price,
        currency: p.currency,
        category: p.category,
        moq: p.moq,
        acceptsOEM: p.acceptsOEM,
        images: p.images,
        keywords: p.keywords,
        boothId: p.boothId,
        priceTiers: p.priceTiers,
      });
    });
  }, [id]);
  return (
    <SignInGate>
      {() =>
        missing ? (
          <p role="alert">{tc("errorGeneric")}</p>
        ) : initial ? (
          <>
            {id && created && (
              <p role="status" className="mb-4 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
                {t("created")}
              </p>
            )}
            <ProductForm initial={initial} locale={locale} />
          </>
        ) : (
          <p className="text-slate-500">{tc("loading")}</p>
        )
      }
    </SignInGate>
  );
}
