// Content sniffing by magic bytes (file-type), never by the declared Content-Type or name, except
// where the format has no usable signature of its own: CSV (plain text) and the legacy Office
// formats, which share one OLE2 container signature for DOC, XLS, PPT, MSG, ...
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
// The platform-neutral entry: the same code runs in Next's bundle, in server.ts and in tests.
import { fileTypeFromBuffer, fileTypeFromStream } from "file-type/core";
import type { UploadKind } from "./policy";

/** Enough for every signature we accept and usually for an OOXML file's [Content_Types].xml. */
export const HEAD_BYTES = 64 * 1024;

export type Sniffed = {
  kind: UploadKind;
  mime: string;
  /** A ZIP whose first bytes did not yet show which Office format it is: check the whole file. */
  needsZipCheck?: boolean;
};

const IMAGES: Record<string, string> = {
  "image/png": "image/png",
  // An animated PNG is a PNG to every browser.
  "image/apng": "image/png",
  "image/jpeg": "image/jpeg",
  "image/webp": "image/webp",
  "image/gif": "image/gif",
};

// Macro-enabled variants (xlsm, docm, pptm) are deliberately absent.
export const OOXML: ReadonlySet<string> = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
]);

const LEGACY_OFFICE: Record<string, string> = { doc: "application/msword", xls: "application/vnd.ms-excel" };

const extension = (name: string) => /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase() ?? "";

/**
 * Classify a file from its first bytes. `complete` says the head is the whole file. Null: not a
 * format we accept for any upload type.
 */
export async function sniff(head: Buffer, complete: boolean, name: string): Promise<Sniffed | null> {
  const ft = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  if (ft) {
    const image = IMAGES[ft.mime];
    if (image) return { kind: "image", mime: image };
    if (ft.mime === "application/pdf" || OOXML.has(ft.mime)) return { kind: "document", mime: ft.mime };
    if (ft.mime === "application/x-cfb") {
      const mime = LEGACY_OFFICE[extension(name)];
      return mime ? { kind: "document", mime } : null;
    }
    if (ft.mime === "application/zip" && !complete) return { kind: "document", mime: ft.mime, needsZipCheck: true };
    return null;
  }
  return looksLikeCsv(head, complete, name) ? { kind: "document", mime: "text/csv" } : null;
}

/** CSV has no signature: accept a `.csv` name whose first bytes are UTF-8 text without NULs. */
function looksLikeCsv(head: Buffer, complete: boolean, name: string): boolean {
  if (extension(name) !== "csv" || head.length === 0 || head.includes(0)) return false;
  try {
    // `stream: true` tolerates a character cut in half at the end of a partial head.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** For a ZIP the head could not classify: the Office type after reading as far as needed. */
export async function sniffOfficeZip(stream: Readable): Promise<string | null> {
  try {
    const ft = await fileTypeFromStream(Readable.toWeb(stream) as NodeReadableStream<Uint8Array>);
    return ft && OOXML.has(ft.mime) ? ft.mime : null;
  } finally {
    stream.destroy();
  }
}
