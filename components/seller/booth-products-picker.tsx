"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { FormAlert } from "@/components/ui/field";

type Row = { id: string; title: string; boothId: string | null };

/**
 * "Products in this booth": the store's products as a checklist. Ticking one moves it into this booth
 * (PATCH /api/products/:id with boothId), unticking takes it out, so a booth is filled from the booth
 * editor instead of product by product.
 */
export function BoothProductsPicker({
  storeId,
  boothId,
  booths,
  onChanged,
}: {
  storeId: string;
  boothId: string;
  booths: { id?: string; name: string }[];
  onChanged: () => void;
}) {
  const t = useTranslations("Flows");
  const tc = useTranslations("Common");
  const [rows, setRows] = useState<Row[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ products: Row[] }>(`/api/products?sellerId=${encodeURIComponent(storeId)}&sort=newest&limit=100`).then(
      (r) => !cancelled && r.ok && setRows(r.data.products),
    );
    return () => {
      cancelled = true;
    };
  }, [storeId, boothId]);

  const place = (id: string, where: string | null) => setRows((all) => all?.map((r) => (r.id === id ? { ...r, boothId: where } : r)) ?? null);

  // The box follows the click at once and goes back if the store refuses (a full booth, a lost connection).
  async function toggle(row: Row, into: boolean) {
    setBusy(row.id);
    setAlert(null);
    place(row.id, into ? boothId : null);
    const res = await apiFetch<{ product: Row }>(`/api/products/${encodeURIComponent(row.id)}`, { method: "PATCH", json: { boothId: into ? boothId : null } });
    setBusy(null);
    if (!res.ok) {
      place(row.id, row.boothId);
      return setAlert(res.problem.code === "booth_full" ? t("boothFull") : res.problem.detail);
    }
    onChanged();
  }

  const boothName = (id: string) => booths.find((b) => b.id === id)?.name ?? "";
  const count = rows?.filter((r) => r.boothId === boothId).length ?? 0;
  return (
    <fieldset className="space-y-2" data-testid="booth-products">
      <legend className="text-sm font-medium">{t("boothProducts")}</legend>
      <p className="text-xs text-slate-500">{t("boothProductsHint", { count })}</p>
      {alert && <FormAlert>{alert}</FormAlert>}
      {rows === null ? (
        <p className="text-sm text-slate-500">{tc("loading")}</p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t("boothNoProducts")}</p>
      ) : (
        <ul className="max-h-72 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2">
          {rows.map((r) => (
            <li key={r.id}>
              <label className="flex min-w-0 cursor-pointer items-start gap-2 rounded px-1 py-1 text-sm hover:bg-slate-50">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={r.boothId === boothId}
                  disabled={busy === r.id}
                  onChange={(e) => void toggle(r, e.target.checked)}
                />
                <span className="min-w-0">
                  <bdi className="block break-words">{r.title}</bdi>
                  {r.boothId && r.boothId !== boothId && (
                    <span className="block text-xs text-slate-500">{t("inOtherBooth", { booth: boothName(r.boothId) || "—" })}</span>
                  )}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
