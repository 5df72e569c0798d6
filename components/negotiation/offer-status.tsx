"use client";

import { useTranslations } from "next-intl";
import type { Offer } from "./use-thread";

export type OfferState = Offer["status"];

const COLORS: Record<OfferState, string> = {
  open: "bg-sky-100 text-sky-800",
  accepted: "bg-green-100 text-green-800",
  declined: "bg-red-100 text-red-800",
  superseded: "bg-slate-100 text-slate-700",
  expired: "bg-slate-100 text-slate-700",
  pending_guardian_approval: "bg-amber-100 text-amber-900",
};

/** An offer's status (every page that shows offers); offers have states inquiries and orders lack. */
export function OfferStatus({ status }: { status: OfferState }) {
  const t = useTranslations("Negotiation.status");
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-medium ${COLORS[status]}`} data-testid="offer-status">
      {t(status)}
    </span>
  );
}
