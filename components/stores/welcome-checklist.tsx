"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { SignInGate } from "@/components/auth/sign-in-gate";
import type { Me } from "@/components/auth/use-me";
import { apiFetch } from "@/components/lib/api-client";
import { Link } from "@/lib/i18n/navigation";

type Step = { key: string; href: string; done: boolean | null };
type State = { requirements: number; hasLogo: boolean; products: number; booths: number; publishedBooths: number };

/** The first steps after registering, each ticked from what the account really has. */
export function WelcomeChecklist() {
  return <SignInGate humansOnly>{(me) => <Checklist me={me} />}</SignInGate>;
}

function Checklist({ me }: { me: NonNullable<Me> }) {
  const t = useTranslations("Welcome");
  const [state, setState] = useState<State | null>(null);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const [reqs, settings, dash] = await Promise.all([
        apiFetch<{ total: number }>("/api/buyer/requirements?limit=1"),
        me.sellerProfileId ? apiFetch<{ settings: { logoUrl: string | null } }>("/api/seller/settings") : null,
        me.sellerProfileId ? apiFetch<{ products: number; booths: number; publishedBooths: number }>("/api/seller/dashboard") : null,
      ]);
      if (cancelled) return;
      setState({
        requirements: reqs.ok ? reqs.data.total : 0,
        hasLogo: Boolean(settings?.ok && settings.data.settings.logoUrl),
        products: dash?.ok ? dash.data.products : 0,
        booths: dash?.ok ? dash.data.booths : 0,
        publishedBooths: dash?.ok ? dash.data.publishedBooths : 0,
      });
    })();
    return () => {
      cancelled = true;
    };
  }, [me.sellerProfileId]);

  const known = (v: boolean) => (state ? v : null);
  const buyer: Step[] = [
    { key: "findProducts", href: "/search", done: null },
    { key: "postRequirement", href: "/buyer?tab=requirements", done: known((state?.requirements ?? 0) > 0) },
  ];
  const seller: Step[] = [
    { key: "openStore", href: me.sellerProfileId ? "/seller/settings" : "/seller", done: known(Boolean(me.sellerProfileId) && Boolean(state?.hasLogo)) },
    { key: "addProduct", href: "/seller/products", done: known((state?.products ?? 0) > 0) },
    { key: "buildBooth", href: "/seller/booths", done: known((state?.publishedBooths ?? 0) > 0) },
  ];
  const sellerFirst = Boolean(me.sellerProfileId) || me.role === "SELLER";
  const lists = sellerFirst
    ? [
        { id: "sell", steps: seller },
        { id: "buy", steps: buyer },
      ]
    : [
        { id: "buy", steps: buyer },
        { id: "sell", steps: seller },
      ];
  return (
    <div className="space-y-6">
      <p className="text-lg" data-testid="welcome-user">
        {t("hello", { username: me.username })}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        {lists.map(({ id, steps }) => (
          <section key={id} aria-labelledby={`welcome-${id}`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id={`welcome-${id}`} className="text-lg font-semibold">
              {t(`${id}.title` as "buy.title")}
            </h2>
            <p className="mt-1 text-sm text-slate-600">{t(`${id}.body` as "buy.body")}</p>
            <ol className="mt-4 space-y-3">
              {steps.map((s) => (
                <li key={s.key} className="flex items-center gap-3" data-testid={`step-${s.key}`} data-done={s.done === null ? undefined : String(s.done)}>
                  <span
                    aria-hidden="true"
                    className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-bold ${s.done ? "border-green-700 bg-green-700 text-white" : "border-slate-400 text-slate-500"}`}
                  >
                    {s.done ? "✓" : ""}
                  </span>
                  <Link href={s.href} className="font-medium text-brand-700 hover:underline">
                    {t(`steps.${s.key}` as "steps.findProducts")}
                  </Link>
                  {s.done !== null && <span className="ms-auto text-xs text-slate-600">{s.done ? t("done") : t("todo")}</span>}
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
    </div>
  );
}
