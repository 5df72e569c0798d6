"use client";

import { useTranslations } from "next-intl";

/**
 * What a list shows when its data could not be read, instead of "Loading…" forever: the reason
 * (already in the page's language for 429, 503 and network failures: components/lib/api-client.ts)
 * and a Retry button.
 */
export function LoadError({ message, onRetry }: { message?: string; onRetry: () => void }) {
  const t = useTranslations("ApiClient");
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800" data-testid="load-error">
      <p>{message ?? t("loadFailed")}</p>
      <button type="button" onClick={onRetry} className="mt-2 rounded-lg border border-red-300 bg-white px-3 py-1.5 font-medium text-red-800 hover:bg-red-100">
        {t("retry")}
      </button>
    </div>
  );
}
