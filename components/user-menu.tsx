"use client";

// The account area of the header: sign-in links, or the bell and the account menu (a disclosure:
// a button with aria-expanded; arrow keys, Home and End move through it, Escape closes it and
// returns focus to the button). Who is signed in comes from the page's one session probe
// (./auth/use-me.ts), so pages stay cacheable and browsing spends no API tier (contract 9.5).
import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import { useApiClientTexts } from "@/components/lib/api-client";
import { Link } from "@/lib/i18n/navigation";
import { VerifiedBadge } from "./auth/verified-badge";
import { useMe, type Me } from "./auth/use-me";
import { NotificationBell } from "./notifications/notification-bell";

const ROLE_KEYS = { BUYER: "roleBuyer", SELLER: "roleSeller", ADMIN: "roleAdmin", AI_BUYER: "roleAiBuyer", AI_SELLER: "roleAiSeller" } as const;

export function UserMenu() {
  const t = useTranslations("Nav");
  // Every form on the page says 429s and network failures the same way (components/lib/api-client.ts).
  useApiClientTexts();
  const me = useMe();

  if (me === undefined) {
    return (
      <span className="text-sm text-slate-500" aria-live="polite">
        {t("loading")}
      </span>
    );
  }
  if (!me) {
    return (
      <div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-1 text-sm">
        <Link href="/sign-in" className="whitespace-nowrap hover:text-brand-700">
          {t("signIn")}
        </Link>
        <Link href="/register" className="whitespace-nowrap rounded bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700">
          {t("register")}
        </Link>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="user-menu">
      {/* AI sessions read the count on each page without a socket: opening one is audited as chat.read. */}
      <NotificationBell live={!me.isAI} />
      {me.isAI && (
        <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900" data-testid="ai-mode-badge">
          {t("aiMode")}
        </span>
      )}
      <AccountMenu me={me} />
    </div>
  );
}

function AccountMenu({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("Nav");
  const h = useTranslations("Header");
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onClick);
    return () => document.removeEventListener("mousedown", onClick);
  }, [open]);

  const items = () => [...(panel.current?.querySelectorAll<HTMLElement>("a, button") ?? [])];
  const focusItem = (which: "first" | "last" | 1 | -1) => {
    const list = items();
    if (!list.length) return;
    const at = list.indexOf(document.activeElement as HTMLElement);
    const i = which === "first" ? 0 : which === "last" ? list.length - 1 : (at + which + list.length) % list.length;
    list[i]!.focus();
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    setOpen(true);
    const which = e.key === "ArrowDown" ? "first" : "last";
    requestAnimationFrame(() => focusItem(which));
  };
  const onPanelKey = (e: KeyboardEvent) => {
    const moves: Record<string, "first" | "last" | 1 | -1> = { ArrowDown: 1, ArrowUp: -1, Home: "first", End: "last" };
    if (e.key === "Escape") {
      e.preventDefault();
      close(true);
    } else if (moves[e.key] !== undefined) {
      e.preventDefault();
      focusItem(moves[e.key]!);
    }
  };
  // Tabbing out of the menu closes it.
  const onBlur = (e: FocusEvent) => {
    if (root.current && !root.current.contains(e.relatedTarget as Node | null)) setOpen(false);
  };

  const links: [string, string][] = [
    ["/buyer", t("buyer")],
    ["/offers", t("offers")],
    ["/chat", t("chat")],
  ];
  // A seller (or an AI seller of one) has a dashboard; a person without a store is offered one.
  if (me.sellerProfileId) links.push(["/seller", h("sellerDashboard")]);
  else if (!me.isAI) links.push(["/seller", h("openStore")]);
  if (!me.isAI) links.push(["/seller/ai-accounts", t("aiAgents")]);
  if (!me.isAI) links.push(["/settings", t("account")]);
  links.push(["/settings/api-keys", t("apiKeys")]);
  if (me.role === "ADMIN") links.push(["/admin/fx-rates", t("fxRates")]);

  const roleKey = ROLE_KEYS[me.role as keyof typeof ROLE_KEYS];
  const initial = Array.from(me.username)[0]?.toUpperCase() ?? "?";
  const [before = "", after = ""] = h("accountMenu", { username: "\u0000" }).split("\u0000");
  return (
    <div className="relative" ref={root} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKey}
        data-testid="signed-in-as"
        className="flex items-center gap-2 rounded-full border border-slate-300 py-0.5 pe-2 ps-0.5 hover:border-brand-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span aria-hidden="true" className="flex h-7 w-7 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">
          {initial}
        </span>
        {/* The name is the visible username inside the translated phrase (label in name, WCAG 2.5.3). */}
        <span className="sr-only">{before}</span>
        <bdi className="sr-only max-w-[10rem] truncate font-medium sm:not-sr-only">{me.username}</bdi>
        <span className="sr-only">{after}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className={`h-4 w-4 text-slate-500 transition-transform ${open ? "rotate-180" : ""}`} fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      {open && (
        <div
          id="account-menu"
          ref={panel}
          onKeyDown={onPanelKey}
          className="absolute end-0 z-30 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          <div className="border-b border-slate-100 px-4 py-3" data-testid="account-summary">
            <p className="truncate font-semibold">
              <bdi>{me.username}</bdi>
              {me.isAI && <span className="ms-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">{t("aiMode")}</span>}
            </p>
            <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
              {roleKey ? h(roleKey) : me.role}
              {!me.isAI && <VerifiedBadge verified={me.emailVerified} />}
            </p>
            {me.guardian && <p className="text-xs text-slate-600">{h("agentOf", { username: me.guardian.username })}</p>}
          </div>
          <ul>
            {links.map(([href, label]) => (
              <li key={href}>
                <Link href={href} onClick={() => close(false)} className="block px-4 py-2 hover:bg-slate-50 focus:bg-slate-100 focus:outline-none">
                  {label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="border-t border-slate-100 pt-1">
            <button
              type="button"
              className="block w-full px-4 py-2 text-start text-slate-700 hover:bg-slate-50 focus:bg-slate-100 focus:outline-none"
              onClick={() => void signOut({ callbackUrl: "/" })}
            >
              {t("signOut")}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
