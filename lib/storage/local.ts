// Local-disk storage: files under one root directory, written to a temporary file and renamed
// into place, so a reader (or a crash) never sees a partial file.
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isStorageKey } from "./keys";
import type { ByteRange, Storage } from "./types";

/** Temporary files live inside the root so the final rename never crosses a file system. */
const TMP = ".tmp";
/** A temporary file this old belongs to a process that died mid-upload. */
const STALE_TMP_MS = 24 * 60 * 60 * 1000;

export class LocalStorage implements Storage {
  readonly kind = "local" as const;
  private swept = false;
  constructor(readonly root: string) {}

  private file(key: string): string {
    // Defence in depth: callers generate keys, but nothing outside the generated form may name a path.
    if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable, _opts: { contentType: string }): Promise<{ size: number }> {
    const target = this.file(key);
    const tmpDir = path.join(this.root, TMP);
    await mkdir(tmpDir, { recursive: true });
    await mkdir(path.dirname(target), { recursive: true });
    if (!this.swept) {
      this.swept = true;
      void this.sweepTemp(tmpDir);
    }
    const tmp = path.join(tmpDir, `${randomBytes(12).toString("hex")}.part`);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      // `flush` fsyncs before close, so the rename below publishes data that is on disk.
      await pipeline(body, counter, createWriteStream(tmp, { flags: "wx", mode: 0o640, flush: true }));
      await rename(tmp, target);
      return { size };
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
  }

  /** Remove what a killed process left in the temporary directory (never a finished object). */
  private async sweepTemp(tmpDir: string) {
    const now = Date.now();
    for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
      const file = path.join(tmpDir, name);
      const s = await stat(file).catch(() => null);
      if (s && now - s.mtimeMs > STALE_TMP_MS) await unlink(file).catch(() => {});
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.file(key);
    try {
      // Open first so a missing file is a null, not an error event on a returned stream.
      const s = createReadStream(file, range ? { start: range.start, end: range.end } : {});
      await new Promise<void>((resolve, reject) => {
        s.once("open", () => resolve());
        s.once("error", reject);
      });
      return s;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.file(key));
      return { size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await unlink(this.file(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }
}
