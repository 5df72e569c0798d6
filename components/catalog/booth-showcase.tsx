import type { ReactNode } from "react";

export const BOOTH_THEMES = ["modern", "classic", "minimal"] as const;
export type BoothTheme = (typeof BOOTH_THEMES)[number];

/** A safe accent color: only #rrggbb is honored (the value ends up in a style attribute). */
export function boothColor(value: string | null | undefined): string {
  return value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : "#1d4ed8";
}

export type BoothShowcaseProps = {
  name: string;
  companyName?: string | null;
  description?: string | null;
  logoUrl?: string | null;
  bannerUrl?: string | null;
  theme?: string | null;
  colorScheme?: string | null;
  location?: string | null;
  children?: ReactNode;
};

/**
 * The booth as visitors see it, honoring its theme, accent color, logo and banner. Pure (no data
 * fetching, no hooks) so the seller's live preview renders exactly the same thing.
 */
export function BoothShowcase({ name, companyName, description, logoUrl, bannerUrl, theme, colorScheme, location, children }: BoothShowcaseProps) {
  const color = boothColor(colorScheme);
  const t: BoothTheme = (BOOTH_THEMES as readonly string[]).includes(theme ?? "") ? (theme as BoothTheme) : "modern";
  const frame = { modern: "rounded-2xl shadow-lg", classic: "rounded-none border-4", minimal: "rounded-lg border" }[t];
  return (
    <div className={`overflow-hidden bg-white ${frame}`} style={{ borderColor: color }} data-testid="booth-showcase" data-theme={t}>
      {bannerUrl && (
        // The whole banner, letterboxed in the accent color: a banner is artwork, cropping it to a strip loses it.
        <div className="aspect-[4/1] w-full" style={{ background: color }}>
          {/* eslint-disable-next-line @next/next/no-img-element -- user upload */}
          <img src={bannerUrl} alt="" className="h-full w-full object-contain" data-testid="booth-banner" />
        </div>
      )}
      <div
        className="flex items-center gap-4 p-6"
        style={{
          background: bannerUrl ? "#ffffff" : t === "minimal" ? "#f8fafc" : `linear-gradient(135deg, ${color}, #0f172a)`,
          color: bannerUrl || t === "minimal" ? "#0f172a" : "#ffffff",
        }}
      >
        {logoUrl && (
          // eslint-disable-next-line @next/next/no-img-element -- user upload
          <img src={logoUrl} alt="" className="h-16 w-16 shrink-0 rounded-lg border border-slate-200 bg-white object-contain p-1" />
        )}
        <div className="min-w-0">
          <h1 className="text-2xl font-bold" dir="auto">
            {name}
          </h1>
          {companyName && (
            <p className="text-sm opacity-90" dir="auto">
              {companyName}
            </p>
          )}
          {location && (
            <p className="text-xs opacity-80" dir="auto">
              {location}
            </p>
          )}
        </div>
      </div>
      <div className="space-y-6 p-6">
        {description && (
          <p className="whitespace-pre-line text-slate-700 [unicode-bidi:plaintext]" dir="auto">
            {description}
          </p>
        )}
        {children}
      </div>
    </div>
  );
}
