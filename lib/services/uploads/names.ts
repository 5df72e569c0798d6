// The original file name, made safe to store, show and put in a Content-Disposition header. It is
// only ever a label: storage keys are generated (lib/storage/keys.ts).

export const MAX_NAME_LENGTH = 200;

// C0 and C1 controls, DEL, and the invisible bidi/format characters used to disguise extensions
// ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf").
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function sanitizeFileName(raw: string | undefined | null, fallback = "file"): string {
  // Whitespace controls separate words; every other control character is dropped.
  let name = (raw ?? "")
    .normalize("NFC")
    .replace(/[\t\n\r]/g, " ")
    .replace(UNSAFE, "");
  // Keep only the last path part, whichever separator the client's system uses.
  name = name.split(/[/\\]/).pop() ?? "";
  name = name.replace(/\.\.+/g, ".");
  // Reserved on common file systems; harmless here but surprising when the file is saved.
  name = name.replace(/[<>:"|?*]/g, "_");
  name = trimDotsAndSpaces(name.replace(/\s+/g, " "));
  if (!name) return fallback;
  return truncate(name, MAX_NAME_LENGTH);
}

/**
 * Leading and trailing dots and spaces removed by two index walks: the regex `[.\s]+$` retried the
 * run from every position inside it, quadratic on a name like "x . . . . x" (contract 9.1).
 */
function trimDotsAndSpaces(name: string): string {
  const edge = (i: number) => name[i] === "." || name[i] === " ";
  let start = 0;
  let end = name.length;
  while (start < end && edge(start)) start++;
  while (end > start && edge(end - 1)) end--;
  return name.slice(start, end);
}

/** Shorten to `max` characters (code points), keeping a short extension. */
function truncate(name: string, max: number): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? [...name.slice(dot)] : [];
  if (ext.length > 0 && ext.length <= 16) return chars.slice(0, max - ext.length).join("") + ext.join("");
  return chars.slice(0, max).join("");
}

/** `Content-Disposition` with an ASCII fallback and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
