"use client";

// The browser's side of the API: JSON in and out, problem details surfaced as values.
// `retryAfter` (seconds) comes from the Retry-After header of a 429 or 503, so a page can say when to try again.
export type Problem = { status: number; code: string; detail: string; errors?: { path: string; message: string }[]; retryAfter?: number };
export type ApiAnswer<T> = { ok: true; data: T } | { ok: false; problem: Problem };

export async function apiFetch<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<ApiAnswer<T>> {
  try {
    const res = await fetch(path, {
      method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
      headers: init.json !== undefined ? { "Content-Type": "application/json" } : undefined,
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      credentials: "same-origin",
      cache: "no-store",
    });
    const body = (await res.json().catch(() => null)) as unknown;
    if (res.ok) return { ok: true, data: body as T };
    const p = (body ?? {}) as Partial<Problem>;
    const retryAfter = Number(res.headers.get("Retry-After") ?? NaN);
    return {
      ok: false,
      problem: {
        status: res.status,
        code: p.code ?? "error",
        detail: p.detail ?? res.statusText,
        errors: p.errors,
        ...(Number.isFinite(retryAfter) ? { retryAfter } : {}),
      },
    };
  } catch {
    return { ok: false, problem: { status: 0, code: "network", detail: "network error" } };
  }
}
