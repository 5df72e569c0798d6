"use client";

import { useTranslations } from "next-intl";
import { SignInGate } from "@/components/auth/sign-in-gate";
import { OpenStoreForm } from "@/components/stores/open-store-form";
import { Link } from "@/lib/i18n/navigation";
import { DashboardStats } from "./dashboard-stats";

/** The seller dashboard shell: the store and AI agents; later issues add products, booths, inquiries. */
export function SellerDashboard() {
  const t = useTranslations("Seller");
  const ti = useTranslations("SellerInquiries");
  const to = useTranslations("SellerOrders");
  const ts = useTranslations("Settings");
  const tr = useTranslations("Rfq");
  return (
    <SignInGate>
      {(me) => (
        <div className="space-y-6">
          <p className="text-lg" data-testid="seller-welcome">
            {t("welcome", { username: me.username })}
          </p>
          {me.isAI && <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">{t("aiModeNote")}</p>}
          {(me.sellerProfileId || me.isAI) && <DashboardStats />}
          <div className="grid gap-4 md:grid-cols-2">
            <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <h2 className="text-lg font-semibold">{t("storeTitle")}</h2>
              <p className="mt-2 text-sm text-slate-600">{me.sellerProfileId || me.isAI ? t("storeBody") : t("noStore")}</p>
              {!me.sellerProfileId && !me.isAI && <OpenStoreForm />}
              {(me.sellerProfileId || me.isAI) && (
                <div className="mt-4 flex flex-wrap gap-3">
                  <Link href="/seller/products" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white">
                    {t("productsLink")}
                  </Link>
                  <Link href="/seller/booths" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
                    {t("boothsLink")}
                  </Link>
                  <Link href="/seller/inquiries" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
                    {ti("link")}
                  </Link>
                  <Link href="/seller/requirements" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
                    {tr("link")}
                  </Link>
                  <Link href="/seller/orders" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
                    {to("link")}
                  </Link>
                  <Link href="/seller/settings" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
                    {ts("link")}
                  </Link>
                </div>
              )}
            </section>
            {!me.isAI && (
              <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <h2 className="text-lg font-semibold">{t("aiTitle")}</h2>
                <p className="mt-2 text-sm text-slate-600">{t("aiBody")}</p>
                <div className="mt-4 flex flex-wrap gap-3">
                  <Link href="/seller/ai-accounts" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white">
                    {t("aiManage")}
                  </Link>
                  <Link href="/ai-register" className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium">
                    {t("aiRegister")}
                  </Link>
                </div>
              </section>
            )}
          </div>
        </div>
      )}
    </SignInGate>
  );
}
