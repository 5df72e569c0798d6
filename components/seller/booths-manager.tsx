"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState, type FormEvent } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import type { Me } from "@/components/auth/use-me";
import { BOOTH_THEMES, boothColor, BoothShowcase } from "@/components/catalog/booth-showcase";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";
import { Switch } from "@/components/ui/switch";
import { Link } from "@/lib/i18n/navigation";
import { BoothProductsPicker } from "./booth-products-picker";
import { KeywordsEditor } from "./keywords-editor";
import { UploadButton } from "./upload-button";

type Doc = { url: string; name: string; type: string; size: number };
type Booth = {
  id?: string;
  name: string;
  exhibitionName: string | null;
  location: string | null;
  description: string | null;
  theme: string | null;
  colorScheme: string | null;
  logoUrl: string | null;
  bannerUrl: string | null;
  keywords: string[];
  documents: Doc[];
  isPublished?: boolean;
  productCount?: number;
};
const EMPTY: Booth = {
  name: "",
  exhibitionName: null,
  location: null,
  description: null,
  theme: "modern",
  colorScheme: "#1d4ed8",
  logoUrl: null,
  bannerUrl: null,
  keywords: [],
  documents: [],
};

export function BoothsManager() {
  return <SignInGate>{(me) => <Manager me={me} />}</SignInGate>;
}

function Manager({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("SellerBooths");
  const ts = useTranslations("Seller");
  const tc = useTranslations("Common");
  const tf = useTranslations("Flows");
  const [booths, setBooths] = useState<Booth[] | null>(null);
  const [exhibitions, setExhibitions] = useState<{ id: string; name: string }[]>([]);
  const [editing, setEditing] = useState<Booth | null>(null);
  const [saving, setSaving] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The preview shows what buyers will see: the store's company name, not the account's username.
  const [company, setCompany] = useState<string | null>(null);

  const load = () => apiFetch<{ booths: Booth[] }>("/api/booths").then((r) => r.ok && setBooths(r.data.booths));
  useEffect(() => {
    void apiFetch<{ booths: Booth[] }>("/api/booths").then((r) => r.ok && setBooths(r.data.booths));
    void apiFetch<{ exhibitions: { id: string; name: string }[] }>("/api/exhibitions?limit=100").then((r) => r.ok && setExhibitions(r.data.exhibitions));
    if (me.sellerProfileId)
      void apiFetch<{ seller: { companyName: string } }>(`/api/sellers/${me.sellerProfileId}`).then((r) => r.ok && setCompany(r.data.seller.companyName));
  }, [me.sellerProfileId]);

  if (!me.sellerProfileId && !me.isAI) return <p className="rounded-xl border border-slate-200 bg-white p-6">{ts("noStore")}</p>;
  const set = <K extends keyof Booth>(k: K, v: Booth[K]) => setEditing((b) => (b ? { ...b, [k]: v } : b));

  async function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!editing) return;
    setSaving(true);
    setAlert(null);
    setNotice(null);
    const { id, isPublished: _p, productCount: _c, ...body } = editing;
    const res = id
      ? await apiFetch<{ booth: Booth }>(`/api/booths/${id}`, { method: "PUT", json: body })
      : await apiFetch<{ booth: Booth }>("/api/booths", { json: body });
    setSaving(false);
    if (!res.ok) return setAlert(res.problem.detail);
    setEditing({ ...res.data.booth, keywords: res.data.booth.keywords ?? [] });
    setNotice(t("saved"));
    await load();
  }

  async function publish(next: boolean) {
    if (!editing?.id) return;
    const res = await apiFetch<{ booth: Booth }>("/api/booths", { method: "PUT", json: { boothId: editing.id, isPublished: next } });
    if (!res.ok) return setAlert(res.problem.status === 404 ? t("aiCannotPublish") : res.problem.detail);
    setEditing((b) => (b ? { ...b, isPublished: res.data.booth.isPublished } : b));
    await load();
  }

  const input = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2";
  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <nav aria-label={t("title")} className="space-y-2">
        <button
          type="button"
          onClick={() => setEditing({ ...EMPTY })}
          className="w-full rounded-lg bg-brand-600 px-4 py-2 font-medium text-white"
          data-testid="new-booth"
        >
          {t("new")}
        </button>
        {booths === null ? (
          <p className="text-sm text-slate-500">{tc("loading")}</p>
        ) : booths.length === 0 ? (
          <p className="text-sm text-slate-600">{t("empty")}</p>
        ) : (
          <ul className="space-y-1">
            {booths.map((b) => (
              <li key={b.id}>
                <button
                  type="button"
                  onClick={() => {
                    setAlert(null);
                    setNotice(null);
                    setEditing({ ...b, keywords: b.keywords ?? [] });
                  }}
                  className={`w-full rounded-lg border px-3 py-2 text-start text-sm ${editing?.id === b.id ? "border-brand-600 bg-brand-50" : "border-slate-200 bg-white"}`}
                >
                  <span className="block font-medium">{b.name}</span>
                  <span className="text-xs text-slate-500">
                    {b.isPublished ? t("published") : t("draft")} · {t("productCount", { count: b.productCount ?? 0 })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </nav>
      {!editing ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{t("select")}</p>
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <form onSubmit={save} className="space-y-4 rounded-xl border border-slate-200 bg-white p-5" data-testid="booth-form">
            {alert && <FormAlert>{alert}</FormAlert>}
            {notice && (
              <p role="status" className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">
                {notice}
              </p>
            )}
            {editing.id && (
              <div className="flex items-center justify-between gap-3 rounded-lg bg-slate-50 p-3">
                <div>
                  <p className="text-sm font-medium">{t("publish")}</p>
                  <p className="text-xs text-slate-500">{me.isAI ? t("aiCannotPublish") : t("publishHint")}</p>
                </div>
                <Switch checked={!!editing.isPublished} disabled={me.isAI} label={t("publish")} onChange={(v) => void publish(v)} />
              </div>
            )}
            <label className="block text-sm font-medium">
              {t("nameLabel")}
              <input required maxLength={200} value={editing.name} onChange={(e) => set("name", e.target.value)} className={input} name="name" />
            </label>
            <label className="block text-sm font-medium">
              {t("exhibitionLabel")}
              <select
                value={editing.exhibitionName ?? ""}
                onChange={(e) => set("exhibitionName", e.target.value || null)}
                className={input}
                name="exhibitionName"
              >
                <option value="">{t("noExhibition")}</option>
                {exhibitions.map((x) => (
                  <option key={x.id} value={x.name}>
                    {x.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="block text-sm font-medium">
              {t("locationLabel")}
              <input
                maxLength={200}
                value={editing.location ?? ""}
                onChange={(e) => set("location", e.target.value || null)}
                className={input}
                name="location"
              />
            </label>
            <label className="block text-sm font-medium">
              {t("descriptionLabel")}
              <textarea
                rows={4}
                maxLength={10000}
                value={editing.description ?? ""}
                onChange={(e) => set("description", e.target.value || null)}
                className={input}
                name="description"
              />
            </label>
            <div className="grid grid-cols-2 gap-3">
              <label className="block text-sm font-medium">
                {t("themeLabel")}
                <select value={editing.theme ?? "modern"} onChange={(e) => set("theme", e.target.value)} className={input} name="theme">
                  {BOOTH_THEMES.map((th) => (
                    <option key={th} value={th}>
                      {t(th === "modern" ? "themeModern" : th === "classic" ? "themeClassic" : "themeMinimal")}
                    </option>
                  ))}
                </select>
              </label>
              <label className="block text-sm font-medium">
                {t("colorLabel")}
                <input
                  type="color"
                  value={boothColor(editing.colorScheme)}
                  onChange={(e) => set("colorScheme", e.target.value)}
                  className="mt-1 h-10 w-full rounded-lg border border-slate-300"
                  name="colorScheme"
                />
              </label>
            </div>
            <div className="grid grid-cols-2 gap-3">
              <div>
                <p className="text-sm font-medium">{t("logoLabel")}</p>
                <UploadButton
                  type="boothLogo"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  label={t("logoLabel")}
                  onUploaded={(u) => set("logoUrl", u.url)}
                />
              </div>
              <div>
                <p className="text-sm font-medium">{t("bannerLabel")}</p>
                <UploadButton
                  type="boothBanner"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  label={t("bannerLabel")}
                  onUploaded={(u) => set("bannerUrl", u.url)}
                />
              </div>
            </div>
            <div>
              <p className="text-sm font-medium">{t("documentsLabel")}</p>
              <p className="text-xs text-slate-500">{t("documentsHint")}</p>
              <ul className="mt-2 space-y-1 text-sm">
                {editing.documents.map((d) => (
                  <li key={d.url} className="flex items-center justify-between gap-2 rounded border border-slate-200 px-2 py-1">
                    <span className="truncate">{d.name}</span>
                    <button
                      type="button"
                      className="text-red-700"
                      onClick={() =>
                        set(
                          "documents",
                          editing.documents.filter((x) => x.url !== d.url),
                        )
                      }
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
              <div className="mt-2">
                <UploadButton
                  type="boothDocument"
                  accept=".pdf,.xlsx,.xls,.docx,.doc,.pptx,.csv"
                  label={t("documentsLabel")}
                  onUploaded={(u) =>
                    setEditing((b) => (b ? { ...b, documents: [...b.documents, { url: u.url, name: u.name, type: u.mimeType, size: u.size }] } : b))
                  }
                />
              </div>
            </div>
            <KeywordsEditor
              value={editing.keywords}
              onChange={(k) => set("keywords", k)}
              label={t("keywordsLabel")}
              hint={t("keywordsHint")}
              showCoverage={false}
            />
            {editing.id && me.sellerProfileId ? (
              <BoothProductsPicker storeId={me.sellerProfileId} boothId={editing.id} booths={booths ?? []} onChanged={() => void load()} />
            ) : (
              <p className="text-xs text-slate-500">{tf("boothProductsAfterSave")}</p>
            )}
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" disabled={saving} className="rounded-lg bg-brand-600 px-5 py-2 font-semibold text-white disabled:opacity-60">
                {saving ? t("saving") : editing.id ? t("save") : t("create")}
              </button>
              {editing.id && (
                <Link href={`/booths/${editing.id}`} className="text-sm text-brand-700 underline">
                  {t("open")}
                </Link>
              )}
            </div>
          </form>
          <section aria-label={t("preview")}>
            <p className="mb-2 text-sm font-medium text-slate-600">{t("preview")}</p>
            <BoothShowcase {...editing} name={editing.name || "—"} companyName={company ?? undefined} />
          </section>
        </div>
      )}
    </div>
  );
}
