import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { newStorageKey } from "@/lib/storage/keys";
import { LocalStorage } from "@/lib/storage/local";

async function readAll(s: Readable | null): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of s! as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks).toString();
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe("LocalStorage", () => {
  it("puts, reads whole and by range, stats and deletes", async () => {
    const s = new LocalStorage(mkdtempSync(path.join(tmpdir(), "store-")));
    const key = newStorageKey();
    expect(await s.put(key, Readable.from([Buffer.from("hello "), Buffer.from("world")]), { contentType: "text/csv" })).toEqual({ size: 11 });
    expect(await readAll(await s.open(key))).toBe("hello world");
    expect(await readAll(await s.open(key, { start: 6, end: 10 }))).toBe("world");
    expect(await s.stat(key)).toEqual({ size: 11 });
    await s.delete(key);
    expect(await s.stat(key)).toBeNull();
    expect(await s.open(key)).toBeNull();
    await s.delete(key);
  });

  it("leaves nothing behind when the stream fails midway", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "store-"));
    const s = new LocalStorage(root);
    async function* failing() {
      yield Buffer.alloc(100_000);
      throw new Error("limit passed");
    }
    await expect(s.put(newStorageKey(), Readable.from(failing()), { contentType: "application/pdf" })).rejects.toThrow("limit passed");
    expect(allFiles(root)).toEqual([]);
  });

  it("refuses keys outside the generated form", async () => {
    const s = new LocalStorage(mkdtempSync(path.join(tmpdir(), "store-")));
    for (const key of ["../x", "ab/../../etc/passwd", "/etc/passwd", "ab/cd"]) {
      await expect(s.put(key, Readable.from([Buffer.from("x")]), { contentType: "text/csv" }), key).rejects.toThrow(/Invalid storage key/);
    }
  });

  it("sweeps temporary files a killed process left, and only stale ones", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "store-"));
    mkdirSync(path.join(root, ".tmp"));
    const stale = path.join(root, ".tmp", "old.part");
    const fresh = path.join(root, ".tmp", "new.part");
    writeFileSync(stale, "x");
    writeFileSync(fresh, "x");
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(stale, dayAgo, dayAgo);
    const s = new LocalStorage(root);
    await s.put(newStorageKey(), Readable.from([Buffer.from("x")]), { contentType: "text/csv" });
    // The sweep runs in the background of the first put.
    for (let i = 0; i < 100 && readdirSync(path.join(root, ".tmp")).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(path.join(root, ".tmp"))).toEqual(["new.part"]);
  });
});
