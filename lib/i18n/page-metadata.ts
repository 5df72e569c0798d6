// Shared generateMetadata for simple pages: a title from a namespace, hreflang alternates.
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type en from "@/messages/en.json";
import { alternates } from "./metadata";
import type { Locale } from "./locales";

type Namespace = keyof typeof en;

export function simpleMetadata<N extends Namespace>(namespace: N, key: keyof (typeof en)[N] & string, path: string, opts: { index?: boolean } = {}) {
  return async ({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> => {
    const { locale } = await params;
    const t = (await getTranslations({ locale, namespace: namespace as never })) as unknown as (k: string) => string;
    return { title: t(key), alternates: alternates(locale, path), ...(opts.index === false ? { robots: { index: false } } : {}) };
  };
}
