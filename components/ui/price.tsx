import { useFormatter, useLocale } from "next-intl";
import { textDirection, type Locale } from "@/lib/i18n/locales";

/** First-strong isolate around text set into a translated sentence: the plain-text form of <bdi>. */
export const isolate = (s: string) => `\u2068${s}\u2069`;

/**
 * An amount of money as Intl formats it for the page's locale (symbol, digits, grouping, sign), in
 * its own bidi isolate: in an Arabic sentence the Latin "US$" and the digits would otherwise be
 * reordered by their neighbours ("$US 23.50"). The isolate takes the locale's direction, the one
 * Intl's output is meant to be read in. Usable from server and client components alike.
 */
export function Price({ amount, currency, className }: { amount: number; currency: string; className?: string }) {
  const format = useFormatter();
  const locale = useLocale() as Locale;
  return (
    <bdi dir={textDirection(locale)} className={`whitespace-nowrap tabular-nums ${className ?? ""}`.trim()} data-testid="price">
      {format.number(amount, { style: "currency", currency })}
    </bdi>
  );
}

/** Text people typed (titles, company names, messages) isolated from the sentence around it. */
export function UserText({ children, className }: { children: string; className?: string }) {
  return (
    <bdi dir="auto" className={className}>
      {children}
    </bdi>
  );
}
