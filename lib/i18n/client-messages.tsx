// The messages the browser gets: only the namespaces its client components translate with. Without a
// `messages` prop, next-intl's provider serializes the locale's whole catalog into every page (46 kB of
// zh.json in each answer, most of the product page's bytes). The root layout hands its own client
// components (header, user menu, notification bell) their namespaces; each page with client components
// wraps itself in `withClientMessages`. A nested provider replaces its parent's messages (it does not
// merge them), so a page lists every namespace used under it. tests/unit/client-messages.test.ts walks
// the imports (tests/support/client-graph.ts) and holds each list equal to what the client code calls
// `useTranslations` with.
import type { Messages } from "next-intl";
import { hasLocale, NextIntlClientProvider } from "next-intl";
import { getMessages, setRequestLocale } from "next-intl/server";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { routing } from "./routing";

export type Namespace = keyof Messages;

export async function ClientMessages({ locale, namespaces, children }: { locale: string; namespaces: readonly Namespace[]; children: ReactNode }) {
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const all = await getMessages({ locale });
  const picked: Partial<Messages> = {};
  for (const ns of namespaces) Object.assign(picked, { [ns]: all[ns] });
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}

type PageProps = { params: Promise<{ locale: string }> };

/** A page whose client components translate with `namespaces` (and nothing else). */
export function withClientMessages<P extends PageProps>(namespaces: readonly Namespace[], Page: (props: P) => ReactNode | Promise<ReactNode>) {
  return async function PageWithClientMessages(props: P) {
    const { locale } = await props.params;
    return (
      <ClientMessages locale={locale} namespaces={namespaces}>
        <Page {...props} />
      </ClientMessages>
    );
  };
}
