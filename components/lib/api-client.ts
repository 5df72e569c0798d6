"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";

// The browser's side of the API: JSON in and out, problem details surfaced as values.
// `retryAfter` (seconds) comes from the Retry-After header of a 429 or 503, so a page can say when to try again.
export type Problem = { status: number; code: string; detail: string; errors?: { path: string; message: string }[]; retryAfter?: number };
export type ApiAnswer<T> = { ok: true; data: T } | { ok: false; problem: Problem };

// A 429, a 503 and a network failure read the same on every form: in the page's language, with when
// to try again. The texts are registered once per page by the header (useApiClientTexts), so every
// form that shows `problem.detail` says it without code of its own.
type Texts = { rateLimited: (minutes: number) => string; unavailable: (minutes: number) => string; network: string };
let texts: Texts | null = null;

/** Minutes to wait, rounded up (at least one), from a Retry-After in seconds. */
export const retryMinutes = (seconds: number | undefined) => Math.max(1, Math.ceil((seconds ?? 60) / 60));

function explain(p: Problem): Problem {
  if (!texts) return p;
  if (p.status === 0) return { ...p, detail: texts.network };
  if (p.status === 429) return { ...p, detail: texts.rateLimited(retryMinutes(p.retryAfter)) };
  if (p.status === 503) return { ...p, detail: texts.unavailable(retryMinutes(p.retryAfter)) };
  return p;
}

/** Register the translated texts (called by the site header on every page). */
export function useApiClientTexts(): void {
  const t = useTranslations("ApiClient");
  useEffect(() => {
    texts = {
      rateLimited: (minutes) => t("rateLimited", { minutes }),
      unavailable: (minutes) => t("unavailable", { minutes }),
      network: t("network"),
    };
  }, [t]);
}

export async function apiFetch<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<ApiAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
      headers: init.json !== undefined ? { "Content-Type": "application/json" } : undefined,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return { ok: false, problem: explain({ status: 0, code: "network", detail: "network error" }) };
  }
  const body = (await res.json().catch(() => null)) as unknown;
  if (res.ok) return { ok: true, data: body as T };
  const p = (body ?? {}) as Partial<Problem>;
  const retryAfter = Number(res.headers.get("Retry-After") ?? NaN);
  return {
    ok: false,
    problem: explain({
      status: res.status,
      code: p.code ?? "error",
      detail: p.detail ?? res.statusText,
      errors: p.errors,
      ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
    }),
  };
}
