"use client";

import { useTranslations } from "next-intl";

const COLORS: Record<string, string> = {
  new: "bg-sky-100 text-sky-800",
  open: "bg-sky-100 text-sky-800",
  replied: "bg-green-100 text-green-800",
  placed: "bg-sky-100 text-sky-800",
  confirmed: "bg-indigo-100 text-indigo-800",
  fulfilled: "bg-green-100 text-green-800",
  completed: "bg-green-100 text-green-800",
  claimed: "bg-indigo-100 text-indigo-800",
  pending_guardian_approval: "bg-amber-100 text-amber-900",
};

type Status =
  | "new"
  | "replied"
  | "closed"
  | "open"
  | "claimed"
  | "completed"
  | "cancelled"
  | "pending_guardian_approval"
  | "placed"
  | "confirmed"
  | "fulfilled"
  | "rejected"
  | "expired";

export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("Status");
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-medium ${COLORS[status] ?? "bg-slate-100 text-slate-700"}`} data-testid="status">
      {t(status as Status)}
    </span>
  );
}

/** The AI disclosure badge for client components (contract 3). */
export function AiTag() {
  const t = useTranslations("Catalog");
  return (
    <span
      title={t("aiBadgeTitle")}
      className="ms-1.5 inline-block rounded bg-amber-100 px-1.5 py-0.5 align-middle text-[10px] font-bold text-amber-900"
      data-testid="ai-badge"
    >
      {t("aiBadge")}
    </span>
  );
}
