import type { Metadata, Viewport } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { hasLocale } from "next-intl";
import { getTranslations, setRequestLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { alternates, siteOrigin } from "@/lib/i18n/metadata";
import { textDirection } from "@/lib/i18n/locales";
import { routing } from "@/lib/i18n/routing";
import "../globals.css";

export function generateStaticParams() {
  return routing.locales.map((locale) => ({ locale }));
}

export async function generateMetadata({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) return {};
  // The origin is the running server's configuration, not the build's: a page prerendered at build
  // time would carry the builder's NEXTAUTH_URL (or localhost:3000) in its canonical and hreflang URLs
  // for good. Reading the request makes every page's metadata (and so the page) render on request.
  await connection();
  const t = await getTranslations({ locale, namespace: "Metadata" });
  return {
    // Relative URLs in any page's metadata (og:image of an upload, say) resolve on the configured origin.
    metadataBase: new URL(`${siteOrigin()}/`),
    title: { default: t("title"), template: `%s | ${t("siteName")}` },
    description: t("description"),
    alternates: alternates(locale, "/"),
    openGraph: { siteName: t("siteName"), locale, type: "website" },
  };
}

export const viewport: Viewport = { themeColor: "#1e40af" };

export default async function LocaleLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: "Nav" });
  return (
    <html lang={locale} dir={textDirection(locale)}>
      <body className="flex min-h-screen flex-col">
        <ClientMessages locale={locale} namespaces={["ApiClient", "Header", "Nav", "Notifications"]}>
          <a href="#main" className="sr-only-focusable absolute start-2 top-2 z-50 rounded bg-white px-3 py-2 shadow">
            {t("skipToContent")}
          </a>
          <SiteHeader locale={locale} />
          <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
            {children}
          </main>
          <SiteFooter />
        </ClientMessages>
      </body>
    </html>
  );
}
