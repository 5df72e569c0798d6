import { getTranslations } from "next-intl/server";
import { Link } from "@/lib/i18n/navigation";
import type { Locale } from "@/lib/i18n/locales";
import { HeaderShell } from "./header-shell";
import { LanguageSwitcher } from "./language-switcher";
import { UserMenu } from "./user-menu";

const LINKS = [
  ["/", "home"],
  ["/search", "products"],
  ["/exhibitions", "exhibitions"],
  ["/stores", "suppliers"],
  ["/shoutouts", "shoutouts"],
  ["/tasks", "tasks"],
  ["/api-docs", "apiDocs"],
] as const;

/**
 * The same HTML for everyone (pages stay cacheable): who is signed in is read in the browser from
 * the session probe (components/auth/use-me.ts). Labels never break inside a word (Japanese,
 * Chinese and Korean included): links wrap whole.
 */
export async function SiteHeader({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: "Nav" });
  const h = await getTranslations({ locale, namespace: "Header" });
  const site = await getTranslations({ locale, namespace: "Metadata" });
  return (
    <header className="border-b border-slate-200 bg-white">
      <HeaderShell
        brand={
          <Link href="/" className="shrink-0 whitespace-nowrap text-lg font-bold text-brand-700">
            {site("siteName")}
          </Link>
        }
        nav={
          <nav aria-label={t("mainNavigation")} className="text-sm">
            <ul className="flex flex-col gap-1 md:flex-row md:flex-wrap md:items-center md:gap-x-4 md:gap-y-1">
              {LINKS.map(([href, key]) => (
                <li key={href}>
                  <Link href={href} className="block whitespace-nowrap py-1.5 [word-break:keep-all] hover:text-brand-700 md:py-0">
                    {t(key)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        }
        language={<LanguageSwitcher />}
        account={<UserMenu />}
        labels={{ open: h("menu"), close: h("closeMenu") }}
      />
    </header>
  );
}
