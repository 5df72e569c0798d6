"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { CURRENCIES } from "@/components/ui/money-fields";
import { useRouter } from "@/lib/i18n/navigation";
import { KeywordsEditor } from "./keywords-editor";
import { PriceTiersEditor, useTierErrors, type TierRow } from "./price-tiers-editor";
import { UploadButton } from "./upload-button";

export type EditableProduct = {
  id?: string;
  title: string;
  description: string;
  price: number | "";
  currency: string;
  category: string;
  moq: number | "";
  acceptsOEM: boolean;
  images: string[];
  keywords: string[];
  boothId: string | null;
  priceTiers: TierRow[];
};
type Cat = { id: string; name: string; children: { id: string; name: string }[] };

export function ProductForm({ initial, locale }: { initial: EditableProduct; locale: string }) {
  const t = useTranslations("SellerProducts");
  const router = useRouter();
  const [p, setP] = useState(initial);
  const [cats, setCats] = useState<Cat[]>([]);
  const [booths, setBooths] = useState<{ id: string; name: string }[]>([]);
  const [pending, setPending] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    void apiFetch<{ categories: Cat[] }>(`/api/categories/tree?locale=${locale}`).then((r) => r.ok && setCats(r.data.categories));
    void apiFetch<{ booths: { id: string; name: string }[] }>("/api/booths").then((r) => r.ok && setBooths(r.data.booths));
  }, [locale]);

  const set = <K extends keyof EditableProduct>(k: K, v: EditableProduct[K]) => setP((x) => ({ ...x, [k]: v }));
  const tierErrors = useTierErrors();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setAlert(null);
    setNotice(null);
    // The server's tier rules, checked first so each row shows its error in the page's language.
    const tierProblems = tierErrors(p.priceTiers, p.price, p.moq, p.currency);
    setFieldErrors(tierProblems);
    if (Object.keys(tierProblems).length) {
      setPending(false);
      return;
    }
    const body = {
      title: p.title,
      description: p.description,
      price: p.price === "" ? undefined : Number(p.price),
      currency: p.currency,
      category: p.category,
      moq: p.moq === "" ? undefined : Number(p.moq),
      acceptsOEM: p.acceptsOEM,
      images: p.images,
      mainImageUrl: p.images[0] ?? null,
      keywords: p.keywords,
      boothId: p.boothId,
      priceTiers: p.priceTiers.map((r) => ({ minQty: Number(r.minQty), unitPrice: Number(r.unitPrice) })),
    };
    const res = p.id
      ? await apiFetch<{ product: { id: string; pendingApproval?: unknown } }>(`/api/products/${p.id}`, { method: "PUT", json: body })
      : await apiFetch<{ product: { id: string } }>("/api/products", { json: body });
    setPending(false);
    if (res.ok) {
      if (!p.id) {
        router.push(`/seller/products/${res.data.product.id}?created=1`);
        return;
      }
      setNotice("pendingApproval" in res.data.product && res.data.product.pendingApproval ? t("pendingApproval") : t("updated"));
      return;
    }
    const pr = res.problem;
    // Tier errors keep their row and field (priceTiers.1.unitPrice); others go to their field.
    if (pr.errors)
      setFieldErrors(Object.fromEntries(pr.errors.map((er) => [er.path.startsWith("priceTiers.") ? er.path : er.path.split(".")[0]!, er.message])));
    setAlert(pr.code === "booth_full" ? t("errorBoothFull") : pr.code === "keywords_required" ? t("errorKeywords") : pr.detail);
  }

  const input = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2";
  const err = (k: string) =>
    fieldErrors[k] ? (
      <p className="mt-1 text-sm text-red-700" id={`${k}-error`}>
        {fieldErrors[k]}
      </p>
    ) : null;
  return (
    <form onSubmit={onSubmit} className="space-y-6" noValidate data-testid="product-form">
      {alert && <FormAlert>{alert}</FormAlert>}
      {notice && (
        <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          {notice}
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="space-y-4">
          <label className="block text-sm font-medium">
            {t("titleLabel")}
            <input
              required
              maxLength={200}
              value={p.title}
              onChange={(e) => set("title", e.target.value)}
              className={input}
              aria-invalid={!!fieldErrors.title}
              name="title"
              dir="auto"
            />
            {err("title")}
          </label>
          <label className="block text-sm font-medium">
            {t("descriptionLabel")}
            <textarea
              rows={5}
              maxLength={20000}
              value={p.description}
              onChange={(e) => set("description", e.target.value)}
              className={input}
              name="description"
              dir="auto"
            />
          </label>
          <div className="grid grid-cols-3 gap-3">
            <label className="col-span-2 block text-sm font-medium">
              {t("priceLabel")}
              <input
                type="number"
                min={0}
                step="0.01"
                inputMode="decimal"
                required
                value={p.price}
                onChange={(e) => set("price", e.target.value === "" ? "" : Number(e.target.value))}
                className={input}
                name="price"
                aria-invalid={!!fieldErrors.price}
              />
              {err("price")}
            </label>
            <label className="block text-sm font-medium">
              {t("currencyLabel")}
              <select value={p.currency} onChange={(e) => set("currency", e.target.value)} className={input} name="currency">
                {CURRENCIES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            </label>
          </div>
          <label className="block text-sm font-medium">
            {t("categoryLabel")}
            <select
              required
              value={p.category}
              onChange={(e) => set("category", e.target.value)}
              className={input}
              name="category"
              aria-invalid={!!fieldErrors.category}
            >
              <option value="">{t("chooseCategory")}</option>
              {cats.map((c) => (
                <optgroup key={c.id} label={c.name}>
                  {c.children.map((ch) => (
                    <option key={ch.id} value={ch.id}>
                      {ch.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            {err("category")}
          </label>
          <div className="grid grid-cols-2 gap-3">
            <label className="block text-sm font-medium">
              {t("moqLabel")}
              <input
                type="number"
                min={1}
                step={1}
                required
                value={p.moq}
                onChange={(e) => set("moq", e.target.value === "" ? "" : Number(e.target.value))}
                className={input}
                name="moq"
                aria-invalid={!!fieldErrors.moq}
              />
              {err("moq")}
            </label>
            <label className="block text-sm font-medium">
              {t("boothLabel")}
              <select value={p.boothId ?? ""} onChange={(e) => set("boothId", e.target.value || null)} className={input} name="boothId">
                <option value="">{t("noBooth")}</option>
                {booths.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <PriceTiersEditor rows={p.priceTiers} onChange={(rows) => set("priceTiers", rows)} errors={fieldErrors} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={p.acceptsOEM} onChange={(e) => set("acceptsOEM", e.target.checked)} name="acceptsOEM" />
            {t("oemLabel")}
          </label>
        </div>
        <div className="space-y-6">
          <div>
            <p className="text-sm font-medium">{t("imagesLabel")}</p>
            <p className="text-xs text-slate-500">{t("imagesHint")}</p>
            <ul className="mt-2 grid grid-cols-4 gap-2">
              {p.images.map((src, i) => (
                <li key={src} className="relative aspect-square overflow-hidden rounded-lg border border-slate-200 bg-white" data-testid="product-image">
                  {/* eslint-disable-next-line @next/next/no-img-element -- just uploaded */}
                  <img src={src} alt="" className="h-full w-full object-cover" />
                  {i === 0 ? (
                    <span className="absolute start-1 top-1 rounded bg-brand-600 px-1 text-[10px] text-white">{t("mainImage")}</span>
                  ) : (
                    <button
                      type="button"
                      onClick={() => set("images", [src, ...p.images.filter((x) => x !== src)])}
                      className="absolute start-1 top-1 rounded bg-white/90 px-1 text-[10px]"
                    >
                      {t("makeMain")}
                    </button>
                  )}
                  <button
                    type="button"
                    onClick={() =>
                      set(
                        "images",
                        p.images.filter((x) => x !== src),
                      )
                    }
                    className="absolute end-1 top-1 rounded bg-white/90 px-1 text-xs"
                    aria-label="×"
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
            <div className="mt-2">
              <UploadButton
                type="product_image"
                accept="image/png,image/jpeg,image/webp,image/gif"
                label={t("imagesLabel")}
                multiple
                onUploaded={(u) => setP((x) => ({ ...x, images: [...x.images, u.url].slice(0, 20) }))}
              />
            </div>
          </div>
          <KeywordsEditor value={p.keywords} onChange={(k) => set("keywords", k)} label={t("keywordsLabel")} hint={t("keywordsHint")} />
        </div>
      </div>
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="rounded-lg bg-brand-600 px-6 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? t("saving") : t("save")}
      </button>
    </form>
  );
}
