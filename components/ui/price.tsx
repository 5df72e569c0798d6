import { useLocale } from "next-intl";
import { textDirection, type Locale } from "@/lib/i18n/locales";

/** First-strong isolate around text set into a translated sentence: the plain-text form of <bdi>. */
export const isolate = (s: string) => `\u2068${s}\u2069`;

type Part = { type: string; value: string };

const parts = (locale: string, amount: number, currency: string): Part[] =>
  new Intl.NumberFormat(locale, { style: "currency", currency }).formatToParts(amount);

// Arabic's pattern is "RLM 23.50 NBSP US$": in a right-to-left run the "$" after the Latin "US" takes
// the paragraph's direction and jumps before it ("$US 23.50"). A Latin currency symbol is therefore
// its own left-to-right isolate; the number and the separators keep the order Intl gave them.
const latinSymbol = (p: Part) => p.type === "currency" && /[A-Za-z]/.test(p.value);

/** Intl's parts joined into runs (one text node per run: the server's HTML keeps "11,80" whole), a Latin symbol apart. */
function segments(locale: string, amount: number, currency: string): { latin: boolean; text: string }[] {
  const out: { latin: boolean; text: string }[] = [];
  for (const p of parts(locale, amount, currency)) {
    const latin = latinSymbol(p);
    const last = out.at(-1);
    if (last && !last.latin && !latin) last.text += p.value;
    else out.push({ latin, text: p.value });
  }
  return out;
}

/** A price as a string for a translated sentence ({price} per piece): isolated, its Latin symbol too. */
export function priceText(locale: string, amount: number, currency: string): string {
  return isolate(
    parts(locale, amount, currency)
      .map((p) => (latinSymbol(p) ? `\u2066${p.value}\u2069` : p.value))
      .join(""),
  );
}

/**
 * An amount of money as Intl.NumberFormat formats it for the page's locale (symbol, digits,
 * grouping), in its own bidi isolate in the locale's direction, so neighbouring text cannot reorder
 * it. Its text is exactly Intl's string. Usable from server and client components alike.
 */
export function Price({ amount, currency, className }: { amount: number; currency: string; className?: string }) {
  const locale = useLocale() as Locale;
  return (
    <bdi dir={textDirection(locale)} className={`whitespace-nowrap tabular-nums ${className ?? ""}`.trim()} data-testid="price">
      {segments(locale, amount, currency).map((s, i) =>
        s.latin ? (
          <bdi key={i} dir="ltr">
            {s.text}
          </bdi>
        ) : (
          s.text
        ),
      )}
    </bdi>
  );
}
