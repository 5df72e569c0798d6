"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { Pager } from "@/components/ui/pager";
import { actionLabel, describeDetails } from "./audit-describe";

type Entry = { id: string; seq: number; action: string; details: string; ip: string; timestamp: string; success: boolean; refusedCount?: number };
type Page = { logs: Entry[]; page: number; limit: number; total: number; totalRelation?: "eq" | "gte"; chainValid: boolean; actions: string[] };
type Filters = { action: string; success: string; from: string; to: string };
const EMPTY: Filters = { action: "", success: "", from: "", to: "" };
const LIMIT = 20;

/** The audit log of one AI account, with filters, paging, CSV download and the chain verdict. */
export function AuditLog({ aiUserId, refreshKey }: { aiUserId: string; refreshKey: number }) {
  const t = useTranslations("AiAccounts");
  const tc = useTranslations("Common");
  const tp = useTranslations("Permissions");
  const ta = useTranslations("AuditView");
  const format = useFormatter();
  const label = (action: string) => {
    const l = actionLabel(action);
    if ("raw" in l) return <bdi className="font-mono text-xs">{l.raw}</bdi>;
    return l.namespace === "Permissions" ? tp(l.key as never) : ta(l.key as never);
  };
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  // The answer is kept with the request it answers: loading is "the latest answer is for another request".
  const [result, setResult] = useState<{ key: string; data: Page | null; error: boolean } | null>(null);

  const query = useCallback(
    (extra: Record<string, string>) => {
      const q = new URLSearchParams({ aiUserId, ...extra });
      if (filters.action) q.set("action", filters.action);
      if (filters.success) q.set("success", filters.success);
      if (filters.from) q.set("from", new Date(`${filters.from}T00:00:00`).toISOString());
      if (filters.to) q.set("to", new Date(`${filters.to}T23:59:59.999`).toISOString());
      return q.toString();
    },
    [aiUserId, filters],
  );
  const url = `/api/ai/audit-logs?${query({ page: String(page), limit: String(LIMIT) })}`;
  const key = `${url}#${refreshKey}`;

  useEffect(() => {
    let cancelled = false;
    void apiFetch<Page>(url).then((r) => {
      if (!cancelled) setResult({ key, data: r.ok ? r.data : null, error: !r.ok });
    });
    return () => {
      cancelled = true;
    };
  }, [url, key]);

  const loading = result?.key !== key;
  const data = result?.data ?? null;
  const error = result?.error ?? false;

  function apply(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setPage(1);
    setFilters({
      action: String(f.get("action") ?? ""),
      success: String(f.get("success") ?? ""),
      from: String(f.get("from") ?? ""),
      to: String(f.get("to") ?? ""),
    });
  }

  const pages = data ? Math.max(1, Math.ceil(data.total / LIMIT)) : 1;
  const fid = (n: string) => `${n}-${aiUserId}`;
  return (
    <section aria-labelledby={fid("audit")} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="audit-log">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id={fid("audit")} className="font-semibold">
          {t("auditTitle")}
        </h3>
        {data && (
          <span
            data-testid="chain-status"
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${data.chainValid ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"}`}
          >
            {data.chainValid ? t("chainValid") : t("chainBroken")}
          </span>
        )}
        {data && (
          <span className="text-sm text-slate-500">{t(data.totalRelation === "gte" ? "totalEntriesAtLeast" : "totalEntries", { count: data.total })}</span>
        )}
        <a
          href={`/api/ai/audit-logs?${query({ format: "csv" })}`}
          download
          className="ms-auto rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium"
        >
          {t("downloadCsv")}
        </a>
      </div>
      <form onSubmit={apply} className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5" key={JSON.stringify(filters)}>
        <label className="text-sm">
          <span className="block font-medium">{t("filterAction")}</span>
          <select name="action" defaultValue={filters.action} className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-1.5">
            <option value="">{tc("all")}</option>
            {data?.actions.map((a) => (
              <option key={a} value={a}>
                {(() => {
                  const l = actionLabel(a);
                  return "raw" in l ? l.raw : l.namespace === "Permissions" ? tp(l.key as never) : ta(l.key as never);
                })()}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="block font-medium">{t("filterSuccess")}</span>
          <select name="success" defaultValue={filters.success} className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-1.5">
            <option value="">{tc("all")}</option>
            <option value="true">{t("succeeded")}</option>
            <option value="false">{t("refused")}</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="block font-medium">{t("filterFrom")}</span>
          <input type="date" name="from" defaultValue={filters.from} className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-1" />
        </label>
        <label className="text-sm">
          <span className="block font-medium">{t("filterTo")}</span>
          <input type="date" name="to" defaultValue={filters.to} className="mt-1 w-full rounded-lg border border-slate-300 px-2 py-1" />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white">
            {t("applyFilters")}
          </button>
          <button
            type="button"
            onClick={() => {
              setFilters(EMPTY);
              setPage(1);
            }}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
          >
            {t("resetFilters")}
          </button>
        </div>
      </form>
      <div className="mt-4 overflow-x-auto" aria-busy={loading}>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {tc("errorGeneric")}
          </p>
        ) : data && data.logs.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">{t("noLogs")}</p>
        ) : (
          <table className="w-full min-w-[36rem] text-start text-sm">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-2 text-start font-medium">
                  {t("colTime")}
                </th>
                <th scope="col" className="py-2 text-start font-medium">
                  {t("colAction")}
                </th>
                <th scope="col" className="py-2 text-start font-medium">
                  {ta("colTarget")}
                </th>
                <th scope="col" className="py-2 text-start font-medium">
                  {t("colResult")}
                </th>
                <th scope="col" className="py-2 text-start font-medium">
                  {t("colDetails")}
                </th>
              </tr>
            </thead>
            <tbody className={loading ? "opacity-50" : ""}>
              {data?.logs.map((l) => {
                const d = describeDetails(l.details);
                return (
                  <tr key={l.id} className="border-b border-slate-100 align-top" data-testid="audit-row">
                    <td className="whitespace-nowrap py-2 pe-3">
                      <time dateTime={l.timestamp}>{format.dateTime(new Date(l.timestamp), { dateStyle: "medium", timeStyle: "short" })}</time>
                    </td>
                    <td className="py-2 pe-3" data-testid="audit-action">
                      {label(l.action)}
                      {d.channel && d.channel !== "page" && <span className="ms-1 text-xs text-slate-500">({ta(`via_${d.channel}`)})</span>}
                    </td>
                    <td className="py-2 pe-3">
                      {d.target ? (
                        <bdi dir="ltr" className="font-mono text-xs">
                          {d.target}
                        </bdi>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="py-2 pe-3">
                      <span className={l.success ? "text-green-700" : "font-medium text-red-700"}>{l.success ? t("succeeded") : t("refused")}</span>
                      {!l.success && d.reason && (
                        <p dir="auto" className="mt-1 text-start text-xs text-slate-600">
                          {d.reason}
                        </p>
                      )}
                      {l.refusedCount !== undefined && (
                        <p className="mt-1 text-xs font-medium text-red-700">{t("refusedInWindow", { count: l.refusedCount })}</p>
                      )}
                    </td>
                    <td className="py-2 text-xs text-slate-600">
                      {/* The stored line as written (HTTP method, path, status, IP): for support and for checking the chain. */}
                      <details>
                        <summary className="cursor-pointer text-brand-700">{ta("rawDetails")}</summary>
                        <p className="mt-1 break-all font-mono" dir="ltr">
                          #{l.seq} {l.action} · {l.details} · {t("colIp")} {l.ip}
                        </p>
                      </details>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      <Pager page={page} pages={pages} onPage={setPage} label={t("auditTitle")} />
    </section>
  );
}
