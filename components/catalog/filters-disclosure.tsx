"use client";

import { useId, useState, type ReactNode } from "react";

/**
 * The search filters behind a button on a phone (results come first), always open from lg up. The
 * panel is server-rendered and hidden by CSS only, so the filter form works before hydration on desktop.
 */
export function FiltersDisclosure({ label, active, children }: { label: string; active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold lg:hidden"
        data-testid="filters-toggle"
      >
        <span>
          {label}
          {active > 0 && <span className="ms-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">{active}</span>}
        </span>
        <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      <div id={id} className={`${open ? "block" : "hidden"} lg:block`} data-testid="filters-panel">
        {children}
      </div>
    </>
  );
}
