// Zip bombs posing as Office files. Sniffing never inflates more than 1 MiB of one entry (file-type's
// own limits), so the server is safe either way; this check protects the people who download a
// booth's documents. It reads only the stored file's central directory (the archive's table of
// contents, at its end) and refuses archives that would expand absurdly, have too many entries, or
// whose entries overlap (the trick of bombs that reuse one compressed block for every entry).
import type { Readable } from "node:stream";
import type { Storage } from "@/lib/storage";

export const ZIP_LIMITS = {
  entries: 10_000,
  /** Total of the entries' uncompressed sizes. */
  expanded: 2 * 1024 * 1024 * 1024,
  /** Past `ratioFrom` bytes expanded, at most this many times the archive's size. */
  ratio: 100,
  ratioFrom: 100 * 1024 * 1024,
  /** Larger central directories are not read (10,000 entries with long names fit easily). */
  directory: 8 * 1024 * 1024,
};

export type ZipVerdict = { ok: true; entries: number; expanded: number } | { ok: false; reason: string };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const MAX_COMMENT = 0xffff;

export async function inspectZip(storage: Storage, key: string, size: number): Promise<ZipVerdict> {
  const tailStart = Math.max(0, size - (22 + MAX_COMMENT));
  const tail = await read(storage, key, tailStart, size - 1);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) return { ok: false, reason: "not a complete ZIP archive" };
  let entries = tail.readUInt16LE(at + 10);
  let dirSize = tail.readUInt32LE(at + 12);
  let dirOffset = tail.readUInt32LE(at + 16);
  if (entries === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    const loc = at - 20;
    if (loc < 0 || tail.readUInt32LE(loc) !== ZIP64_LOCATOR) return { ok: false, reason: "malformed ZIP64 archive" };
    const z64 = Number(tail.readBigUInt64LE(loc + 8));
    if (z64 < 0 || z64 + 56 > size) return { ok: false, reason: "malformed ZIP64 archive" };
    const rec = await read(storage, key, z64, z64 + 55);
    if (rec.readUInt32LE(0) !== ZIP64_EOCD) return { ok: false, reason: "malformed ZIP64 archive" };
    entries = Number(rec.readBigUInt64LE(32));
    dirSize = Number(rec.readBigUInt64LE(40));
    dirOffset = Number(rec.readBigUInt64LE(48));
  }
  if (entries > ZIP_LIMITS.entries) return { ok: false, reason: `more than ${ZIP_LIMITS.entries} entries` };
  if (dirSize > ZIP_LIMITS.directory || dirOffset + dirSize > size) return { ok: false, reason: "malformed ZIP directory" };
  const dir = dirSize > 0 ? await read(storage, key, dirOffset, dirOffset + dirSize - 1) : Buffer.alloc(0);

  const spans: { start: number; end: number }[] = [];
  let expanded = 0;
  let p = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) return { ok: false, reason: "malformed ZIP directory" };
    let compressed = dir.readUInt32LE(p + 20);
    let uncompressed = dir.readUInt32LE(p + 24);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    let offset = dir.readUInt32LE(p + 42);
    // ZIP64 extra field: the 8-byte values of whichever fields are saturated, in this order.
    for (let e = p + 46 + nameLength; e + 4 <= p + 46 + nameLength + extraLength;) {
      const id = dir.readUInt16LE(e);
      const len = dir.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let f = e + 4;
        const next = () => {
          const v = f + 8 <= e + 4 + len && f + 8 <= dir.length ? Number(dir.readBigUInt64LE(f)) : NaN;
          f += 8;
          return v;
        };
        if (uncompressed === 0xffffffff) uncompressed = next();
        if (compressed === 0xffffffff) compressed = next();
        if (offset === 0xffffffff) offset = next();
      }
      e += 4 + len;
    }
    if (![compressed, uncompressed, offset].every(Number.isFinite)) return { ok: false, reason: "malformed ZIP directory" };
    expanded += uncompressed;
    // The local header is at least 30 bytes plus the name, then the compressed data.
    spans.push({ start: offset, end: offset + 30 + nameLength + compressed });
    p += 46 + nameLength + extraLength + commentLength;
  }
  if (expanded > ZIP_LIMITS.expanded) return { ok: false, reason: `it would expand to more than ${ZIP_LIMITS.expanded / 2 ** 30} GiB` };
  if (expanded > ZIP_LIMITS.ratioFrom && expanded > ZIP_LIMITS.ratio * size) {
    return { ok: false, reason: `it would expand ${Math.round(expanded / size)} times its size` };
  }
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.start < spans[i - 1]!.end) return { ok: false, reason: "its entries overlap" };
  }
  if (spans.length && spans[spans.length - 1]!.end > dirOffset) return { ok: false, reason: "its entries overlap" };
  return { ok: true, entries, expanded };
}

async function read(storage: Storage, key: string, start: number, end: number): Promise<Buffer> {
  const stream: Readable | null = await storage.open(key, { start, end });
  if (!stream) throw new Error(`stored upload ${key} is missing`);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
