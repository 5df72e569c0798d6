import { getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";
import type { Locale } from "@/lib/i18n/locales";
import { LanguageSwitcher } from "./language-switcher";
import { UserMenu } from "./user-menu";

export async function SiteHeader({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: "Nav" });
  const site = await getTranslations({ locale, namespace: "Metadata" });
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-bold text-brand-700">
          {site("siteName")}
        </Link>
        <nav aria-label={t("mainNavigation")} className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <Link href="/" className="hover:text-brand-700">
            {t("home")}
          </Link>
          <Link href="/search" className="hover:text-brand-700">
            {t("products")}
          </Link>
          <Link href="/exhibitions" className="hover:text-brand-700">
            {t("exhibitions")}
          </Link>
          <Link href="/shoutouts" className="hover:text-brand-700">
            {t("shoutouts")}
          </Link>
          <Link href="/tasks" className="hover:text-brand-700">
            {t("tasks")}
          </Link>
          <Link href="/api-docs" className="hover:text-brand-700">
            {t("apiDocs")}
          </Link>
        </nav>
        <div className="ms-auto flex items-center gap-4">
          <LanguageSwitcher />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
