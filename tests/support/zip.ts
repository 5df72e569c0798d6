// A minimal ZIP writer for building Office files, and zip bombs, in tests.
import { constants, crc32 as zlibCrc32, deflateRawSync } from "node:zlib";
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export type ZipEntry = {
  name: string;
  /** The bytes as stored: already deflated when `method` is 8. */
  data: Buffer;
  method?: 0 | 8;
  /** Uncompressed size and CRC; default to those of `data` (right for stored entries). */
  size?: number;
  crc?: number;
};

/**
 * A ZIP of the given entries. `aliases` add directory entries that point at an existing entry's
 * local header again (the overlap trick of non-recursive zip bombs).
 */
export function zipOf(entries: ZipEntry[], aliases: { name: string; of: number }[] = []): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const placed: { entry: ZipEntry; offset: number; crc: number; size: number }[] = [];
  let offset = 0;
  const central = (name: string, e: ZipEntry, crc: number, size: number, at: number) => {
    const fileName = Buffer.from(name, "utf8");
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(e.method ?? 0, 10);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(e.data.length, 20);
    c.writeUInt32LE(size, 24);
    c.writeUInt16LE(fileName.length, 28);
    c.writeUInt32LE(at, 42);
    centrals.push(c, fileName);
  };
  for (const e of entries) {
    const fileName = Buffer.from(e.name, "utf8");
    const crc = e.crc ?? crc32(e.data);
    const size = e.size ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method ?? 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    central(e.name, e, crc, size, offset);
    placed.push({ entry: e, offset, crc, size });
    locals.push(local, fileName, e.data);
    offset += 30 + fileName.length + e.data.length;
  }
  for (const a of aliases) {
    const p = placed[a.of]!;
    central(a.name, p.entry, p.crc, p.size, p.offset);
  }
  const count = entries.length + aliases.length;
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

export function zip(entries: [name: string, data: Buffer | string][]): Buffer {
  return zipOf(entries.map(([name, raw]) => ({ name, data: Buffer.isBuffer(raw) ? raw : Buffer.from(raw, "utf8") })));
}

/** A deflated entry that inflates to `mib` MiB of zeros (about 1 KB per MiB), built without holding them. */
export function zerosDeflated(name: string, mib: number): ZipEntry {
  const mibOfZeros = Buffer.alloc(1024 * 1024);
  // A sync-flushed segment is byte-aligned and refers only to zeros, so it can simply be repeated.
  const segment = deflateRawSync(mibOfZeros, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = zlibCrc32(mibOfZeros, crc);
  const data = Buffer.concat([...Array.from({ length: mib }, () => segment), Buffer.from([0x03, 0x00])]);
  return { name, data, method: 8, size: mib * 1024 * 1024, crc };
}

export const OFFICE_MAIN: Record<string, [string, string]> = {
  docx: ["word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"],
  xlsx: ["xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"],
  pptx: ["ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"],
};

/** The [Content_Types].xml that makes a ZIP an Office file of `kind`. */
export function contentTypesXml(kind: "docx" | "xlsx" | "pptx"): string {
  const [part, type] = OFFICE_MAIN[kind]!;
  return `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${part}" ContentType="${type}"/></Types>`;
}

/** A skeletal OOXML file; `padding` bytes of media placed before [Content_Types].xml when `typesLast`. */
export function officeFile(kind: "docx" | "xlsx" | "pptx", opts: { typesLast?: boolean; padding?: number } = {}): Buffer {
  const [part] = OFFICE_MAIN[kind]!;
  const types = contentTypesXml(kind);
  const media: [string, Buffer] = [`${part.split("/")[0]}/media/image1.bin`, Buffer.alloc(opts.padding ?? 0, 7)];
  const rest: [string, string | Buffer][] = [["_rels/.rels", "<Relationships/>"], media, [part, "<x/>"]];
  return zip(opts.typesLast ? [...rest, ["[Content_Types].xml", types]] : [["[Content_Types].xml", types], ...rest]);
}
