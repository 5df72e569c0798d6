// The demo fair's pictures, drawn at seed time: an SVG per product (colour and icon by top category,
// the title set on it, a layout varied by a hash of the title), per store a logo and a banner, per
// exhibition a banner, rendered to WebP by sharp and stored through the upload storage, so the pages
// show them exactly as they show a seller's uploads. Nothing is downloaded.
import { Readable } from "node:stream";
import sharp from "sharp";
import type { Db } from "../client";
import { uploads } from "../schema";
import { newStorageKey, storage } from "@/lib/storage";
import { uploadUrl } from "@/lib/services/uploads/create";
import type { UploadType } from "@/lib/schemas/uploads";

type Palette = { bg: string; bg2: string; fg: string };
const PALETTES: Record<string, Palette> = {
  electronics: { bg: "#1e3a8a", bg2: "#3b82f6", fg: "#e0f2fe" },
  machinery: { bg: "#374151", bg2: "#6b7280", fg: "#fde68a" },
  "apparel-textiles": { bg: "#9d174d", bg2: "#ec4899", fg: "#fdf2f8" },
  "home-garden": { bg: "#166534", bg2: "#22c55e", fg: "#f0fdf4" },
  "building-materials": { bg: "#78350f", bg2: "#d97706", fg: "#fffbeb" },
  lighting: { bg: "#a16207", bg2: "#facc15", fg: "#1c1917" },
  "auto-parts": { bg: "#111827", bg2: "#ef4444", fg: "#f9fafb" },
  "beauty-personal-care": { bg: "#86198f", bg2: "#f0abfc", fg: "#fdf4ff" },
  "food-beverages": { bg: "#7c2d12", bg2: "#fb923c", fg: "#fff7ed" },
  "packaging-printing": { bg: "#57534e", bg2: "#d6d3d1", fg: "#1c1917" },
  "sports-outdoors": { bg: "#065f46", bg2: "#2dd4bf", fg: "#ecfeff" },
  "tools-hardware": { bg: "#1e293b", bg2: "#f97316", fg: "#fff7ed" },
};
const FALLBACK: Palette = { bg: "#0f172a", bg2: "#64748b", fg: "#f8fafc" };

// One simple pictogram per top category, drawn in a 200x200 box around (0,0) at its centre.
const ICONS: Record<string, string> = {
  electronics: `<rect x="-55" y="-90" width="110" height="180" rx="16"/><rect x="-45" y="-72" width="90" height="130" rx="4" fill-opacity=".35"/><circle cx="0" cy="72" r="8" fill-opacity=".5"/>`,
  machinery: `<circle r="60"/><circle r="24" fill-opacity=".3"/>${[0, 45, 90, 135].map((a) => `<rect x="-14" y="-88" width="28" height="176" transform="rotate(${a})"/>`).join("")}`,
  "apparel-textiles": `<path d="M-40-85 L-95-55 L-75-10 L-55-20 L-55 90 L55 90 L55-20 L75-10 L95-55 L40-85 Q0-55 -40-85Z"/>`,
  "home-garden": `<path d="M0-90 L95-10 L70-10 L70 85 L-70 85 L-70-10 L-95-10Z"/><rect x="-20" y="25" width="40" height="60" fill-opacity=".35"/>`,
  "building-materials": [0, 1, 2]
    .map((r) => [0, 1].map((c) => `<rect x="${-90 + c * 92 + (r % 2) * 40}" y="${-80 + r * 56}" width="84" height="48" rx="4"/>`).join(""))
    .join(""),
  lighting: `<circle cy="-25" r="62"/><rect x="-28" y="35" width="56" height="50" rx="6"/><rect x="-20" y="88" width="40" height="10" rx="4"/>`,
  "auto-parts": `<circle r="90"/><circle r="58" fill-opacity=".3"/><circle r="18"/>`,
  "beauty-personal-care": `<rect x="-45" y="-40" width="90" height="130" rx="18"/><rect x="-22" y="-80" width="44" height="42" rx="6"/><rect x="-12" y="-98" width="24" height="20"/>`,
  "food-beverages": `<path d="M-70-50 L70-50 L55 85 L-55 85Z"/><path d="M70-25 Q110-20 100 20 Q95 45 62 40" fill="none" stroke-width="14" stroke="currentColor"/><path d="M-20-95 Q-5-75 -20-60 M15-95 Q30-75 15-60" fill="none" stroke-width="8" stroke="currentColor"/>`,
  "packaging-printing": `<path d="M0-90 L90-45 L90 50 L0 95 L-90 50 L-90-45Z"/><path d="M0-90 L90-45 L0 0 L-90-45Z" fill-opacity=".45"/><path d="M0 0 L0 95" stroke-width="4" stroke="#000" stroke-opacity=".2"/>`,
  "sports-outdoors": `<circle r="88"/><path d="M-88 0 Q0-40 88 0 M-88 0 Q0 40 88 0 M0-88 Q-40 0 0 88 M0-88 Q40 0 0 88" fill="none" stroke="#000" stroke-opacity=".25" stroke-width="6"/>`,
  "tools-hardware": `<g transform="rotate(-45)"><rect x="-14" y="-20" width="28" height="115" rx="10"/><path d="M-45-55 A46 46 0 1 1 45-55 L20-55 L20-95 L-20-95 L-20-55Z"/></g>`,
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A small stable hash (FNV-1a): the same title always gives the same picture. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  return h;
}

/** Greedy word wrap for the SVG text (no layout engine in librsvg). */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if ((line + " " + word).trim().length > width && line) {
      lines.push(line);
      line = word;
    } else line = (line + " " + word).trim();
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = kept[maxLines - 1]!.replace(/\s*\S*$/, "") + "…";
    return kept;
  }
  return lines;
}

export function productSvg(title: string, topSlug: string): string {
  const pal = PALETTES[topSlug] ?? FALLBACK;
  const h = hash(title);
  const angle = h % 360;
  const cx = 250 + (h % 300);
  const tilt = ((h >> 9) % 24) - 12;
  const lines = wrap(title, 30, 3);
  const text = lines.map((l, i) => `<tspan x="48" dy="${i === 0 ? 0 : 44}">${esc(l)}</tspan>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" viewBox="0 0 800 600">
<defs><linearGradient id="g" gradientTransform="rotate(${angle % 90} .5 .5)"><stop offset="0" stop-color="${pal.bg}"/><stop offset="1" stop-color="${pal.bg2}"/></linearGradient></defs>
<rect width="800" height="600" fill="url(#g)"/>
<circle cx="${cx}" cy="${80 + (h % 120)}" r="${160 + (h % 90)}" fill="#fff" fill-opacity=".08"/>
<circle cx="${800 - cx / 2}" cy="${420 - (h % 80)}" r="${90 + ((h >> 5) % 70)}" fill="#000" fill-opacity=".08"/>
<g transform="translate(560 230) rotate(${tilt}) scale(1.15)" fill="${pal.fg}" color="${pal.fg}">${ICONS[topSlug] ?? ICONS.electronics}</g>
<rect x="0" y="430" width="800" height="170" fill="#000" fill-opacity=".35"/>
<text x="48" y="480" font-family="DejaVu Sans, Noto Sans, sans-serif" font-size="34" font-weight="700" fill="#fff">${text}</text>
</svg>`;
}

const initials = (name: string) =>
  name
    .split(/[\s&]+/)
    .filter((w) => /^\p{L}/u.test(w))
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");

export function logoSvg(companyName: string): string {
  const h = hash(companyName);
  const hue = h % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
<rect width="256" height="256" rx="48" fill="hsl(${hue},62%,32%)"/>
<circle cx="196" cy="60" r="70" fill="hsl(${(hue + 40) % 360},70%,55%)" fill-opacity=".55"/>
<text x="128" y="160" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="96" font-weight="700" fill="#fff">${esc(initials(companyName))}</text>
</svg>`;
}

export function bannerSvg(title: string, subtitle: string): string {
  const h = hash(title);
  const hue = h % 360;
  const dots = Array.from({ length: 14 }, (_, i) => {
    const x = (h >> (i % 16)) % 1600;
    const y = ((h * (i + 3)) >>> 0) % 400;
    return `<circle cx="${x}" cy="${y}" r="${20 + ((h >> i) % 60)}" fill="#fff" fill-opacity=".07"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="300" viewBox="0 0 1600 400">
<defs><linearGradient id="g"><stop offset="0" stop-color="hsl(${hue},55%,22%)"/><stop offset="1" stop-color="hsl(${(hue + 50) % 360},60%,42%)"/></linearGradient></defs>
<rect width="1600" height="400" fill="url(#g)"/>${dots}
<text x="80" y="200" font-family="DejaVu Sans, sans-serif" font-size="64" font-weight="700" fill="#fff">${esc(title)}</text>
<text x="82" y="262" font-family="DejaVu Sans, sans-serif" font-size="32" fill="#fff" fill-opacity=".85">${esc(subtitle)}</text>
</svg>`;
}

export type DrawnImage = { svg: string; name: string; type: UploadType; userId: string | null };

/** Render and store each picture; returns their upload URLs in order. Runs a few renders at a time. */
export async function storeImages(db: Db, images: DrawnImage[]): Promise<string[]> {
  const urls: string[] = new Array(images.length);
  const rows: (typeof uploads.$inferInsert)[] = [];
  const store = storage();
  const one = async (img: DrawnImage, i: number) => {
    const body = await sharp(Buffer.from(img.svg)).webp({ quality: 80, effort: 0 }).toBuffer();
    const key = newStorageKey();
    await store.put(key, Readable.from([body]), { contentType: "image/webp" });
    urls[i] = uploadUrl(key);
    rows.push({ userId: img.userId, type: img.type, url: urls[i], storageKey: key, name: img.name, size: body.length, mimeType: "image/webp" });
  };
  // sharp renders on libuv's pool: a few at a time keeps both cores busy without a memory spike.
  const width = 4;
  for (let i = 0; i < images.length; i += width) await Promise.all(images.slice(i, i + width).map((img, j) => one(img, i + j)));
  for (let i = 0; i < rows.length; i += 200) await db.insert(uploads).values(rows.slice(i, i + 200));
  return urls;
}
