import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDirectoryLock, DatabaseLockedError } from "@/lib/db/lock";

describe("PGlite directory lock", () => {
  it("refuses a directory held by a live process, with a clear message", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "lock-")), "pglite");
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      writeFileSync(`${dir}.lock`, JSON.stringify({ pid: holder.pid }));
      expect(() => acquireDirectoryLock(dir)).toThrow(DatabaseLockedError);
      expect(() => acquireDirectoryLock(dir)).toThrow(/already in use by another process \(pid \d+\)/);
    } finally {
      holder.kill();
    }
  });

  it("takes over a stale lock left by a killed process, and releases it", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "lock-")), "pglite");
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345 }));
    const lock = acquireDirectoryLock(dir);
    expect(existsSync(lock.file)).toBe(true);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });
});
