"use client";

// The header's layout and its phone menu. On a desktop (md and up) the navigation, language and
// account sit on one row as always; on a phone the row holds the name, the account and a menu
// button, and the navigation with the language opens below it (aria-controls/aria-expanded).
import { useEffect, useRef, useState, type ReactNode } from "react";
import { usePathname } from "@/lib/i18n/navigation";

export function HeaderShell({
  brand,
  nav,
  language,
  account,
  labels,
}: {
  brand: ReactNode;
  nav: ReactNode;
  language: ReactNode;
  account: ReactNode;
  labels: { open: string; close: string };
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();
  const [shownFor, setShownFor] = useState(pathname);
  // A link followed from the open menu leads to another page: the menu closes there.
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 md:gap-x-6">
      {brand}
      {/* On a phone the account takes the row's free width (basis 0) and wraps inside it, so a long
          label never pushes the menu button onto a line of its own. */}
      <div className="order-1 ms-auto flex min-w-0 grow basis-0 items-center justify-end md:order-2 md:ms-0 md:grow-0 md:basis-auto">{account}</div>
      <button
        ref={button}
        type="button"
        aria-controls="site-menu"
        aria-expanded={open}
        aria-label={open ? labels.close : labels.open}
        onClick={() => setOpen((o) => !o)}
        data-testid="menu-button"
        className="order-1 rounded-lg border border-slate-300 p-2 text-slate-700 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600 md:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
        </svg>
      </button>
      <div
        id="site-menu"
        className={`${open ? "flex" : "hidden"} order-3 w-full flex-col gap-3 border-t border-slate-100 pt-3 md:order-1 md:flex md:w-auto md:flex-1 md:flex-row md:items-center md:gap-6 md:border-0 md:pt-0`}
      >
        {nav}
        <div className="md:ms-auto">{language}</div>
      </div>
    </div>
  );
}
