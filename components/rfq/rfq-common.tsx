"use client";

// Pieces shared by the requirements board and the quote comparison: the category list, how a
// problem is told to the user, and the offer status badge (offer states are not order states).
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { apiFetch, type Problem } from "@/components/lib/api-client";

export type Category = { id: string; name: string; children: { id: string; name: string }[] };

/** The category tree in the page's locale (empty until loaded, or when it cannot be loaded). */
export function useCategories(): Category[] {
  const locale = useLocale();
  const [cats, setCats] = useState<Category[]>([]);
  useEffect(() => {
    let cancelled = false;
    void apiFetch<{ categories: Category[] }>(`/api/categories/tree?locale=${locale}`).then((r) => !cancelled && r.ok && setCats(r.data.categories));
    return () => {
      cancelled = true;
    };
  }, [locale]);
  return cats;
}

/** Options for a category <select>: top categories as groups, their children as choices. */
export function CategoryOptions({ cats }: { cats: Category[] }) {
  return cats.map((c) => (
    <optgroup key={c.id} label={c.name}>
      <option value={c.id}>{c.name}</option>
      {c.children.map((ch) => (
        <option key={ch.id} value={ch.id}>
          {ch.name}
        </option>
      ))}
    </optgroup>
  ));
}

/** A sentence for a refused request: when to retry after a 429, what to do without network, else the server's detail. */
export function useProblemText() {
  const t = useTranslations("Rfq");
  return (p: Problem): string => {
    if (p.status === 0) return t("network");
    if (p.status === 429) return p.retryAfter !== undefined ? t("retryIn", { seconds: Math.max(1, Math.ceil(p.retryAfter)) }) : t("retryLater");
    return p.detail;
  };
}

/** problem+json `errors[]` by field name (the first message of each path). */
export function fieldErrors(p: Problem): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of p.errors ?? []) {
    const key = e.path.split(".")[0] ?? e.path;
    out[key] ??= e.message;
  }
  return out;
}

/** The latest moment `validUntil` may name (the server allows 90 days ahead), as a date input's max. */
export function maxValidDate(): string {
  return new Date(Date.now() + 89 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export const inputClass = "mt-1 block w-full rounded-lg border px-3 py-2";
