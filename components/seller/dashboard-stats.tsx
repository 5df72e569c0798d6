"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { apiFetch } from "@/components/lib/api-client";
import { StatusBadge } from "@/components/ui/status-badge";
import { BarChart } from "./bar-chart";

type Totals = {
  products: number;
  booths: number;
  publishedBooths: number;
  newInquiries: number;
  ordersByStatus: Record<string, number>;
  viewsLast30Days: number;
  downloadsLast30Days: number;
};
type Series = { days: { date: string; count: number }[] };

/** The store's totals and 30-day charts of views, inquiries and downloads. */
export function DashboardStats() {
  const t = useTranslations("Dashboard");
  const format = useFormatter();
  const [totals, setTotals] = useState<Totals | null>(null);
  const [series, setSeries] = useState<Record<"views" | "inquiries" | "downloads", Series> | null>(null);
  useEffect(() => {
    void apiFetch<Totals>("/api/seller/dashboard").then((r) => r.ok && setTotals(r.data));
    void Promise.all((["views", "inquiries", "downloads"] as const).map((k) => apiFetch<Series>(`/api/analytics/${k}`))).then(([v, i, d]) => {
      if (v?.ok && i?.ok && d?.ok) setSeries({ views: v.data, inquiries: i.data, downloads: d.data });
    });
  }, []);
  if (!totals) return null;
  const cards: [string, number][] = [
    [t("products"), totals.products],
    [t("booths"), totals.booths],
    [t("publishedBooths"), totals.publishedBooths],
    [t("newInquiries"), totals.newInquiries],
    [t("views30"), totals.viewsLast30Days],
    [t("downloads30"), totals.downloadsLast30Days],
  ];
  const describe = (count: number, date: string) => t("perDay", { count, date: format.dateTime(new Date(date), { dateStyle: "medium" }) });
  return (
    <section className="space-y-4" data-testid="dashboard-stats">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {cards.map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-4">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="mt-1 text-2xl font-bold">{format.number(value)}</dd>
          </div>
        ))}
      </dl>
      <div className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 className="text-sm font-medium">{t("orders")}</h2>
        <ul className="mt-2 flex flex-wrap gap-3">
          {Object.entries(totals.ordersByStatus).map(([s, n]) => (
            <li key={s} className="flex items-center gap-1.5 text-sm">
              <StatusBadge status={s} /> <span className="font-semibold">{n}</span>
            </li>
          ))}
        </ul>
      </div>
      {series && (
        <div>
          <h2 className="mb-2 text-sm font-medium text-slate-600">{t("charts")}</h2>
          <div className="grid gap-3 md:grid-cols-3">
            <BarChart title={t("viewsChart")} days={series.views.days} describe={describe} />
            <BarChart title={t("inquiriesChart")} days={series.inquiries.days} color="#0f766e" describe={describe} />
            <BarChart title={t("downloadsChart")} days={series.downloads.days} color="#b45309" describe={describe} />
          </div>
        </div>
      )}
    </section>
  );
}
