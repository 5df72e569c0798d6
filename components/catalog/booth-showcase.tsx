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
      <div
        className="relative flex min-h-40 items-end p-6 text-white"
        style={{
          background: bannerUrl
            ? `center / cover no-repeat url("${encodeURI(bannerUrl)}"), ${color}`
            : t === "minimal"
              ? "#f8fafc"
              : `linear-gradient(135deg, ${color}, #0f172a)`,
          color: t === "minimal" && !bannerUrl ? color : undefined,
        }}
      >
        <div className="flex items-center gap-4 rounded-xl bg-black/30 p-3 backdrop-blur-sm">
          {logoUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- user upload
            <img src={logoUrl} alt="" className="h-16 w-16 rounded-lg bg-white object-contain p-1" />
          )}
          <div>
            <h1 className="text-2xl font-bold text-white">{name}</h1>
            {companyName && <p className="text-sm text-white/90">{companyName}</p>}
            {location && <p className="text-xs text-white/80">{location}</p>}
          </div>
        </div>
      </div>
      <div className="space-y-6 p-6">
        {description && <p className="whitespace-pre-line text-slate-700">{description}</p>}
        {children}
      </div>
    </div>
  );
}
