import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { creatingMarker, DatabaseOpenError, openPgliteStore } from "@/lib/db/pglite-store";

describe("PGlite store", () => {
  it("refuses a non-empty directory that holds no database, and leaves it as it was", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "store-")), "pglite");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "notes.txt"), "mine");
    const opening = openPgliteStore(dir, { fsync: true, log: () => {} });
    await expect(opening).rejects.toThrow(DatabaseOpenError);
    await expect(opening).rejects.toThrow(`${dir} is not empty but holds no database (no PG_VERSION file). It was left untouched.`);
    expect(readFileSync(path.join(dir, "notes.txt"), "utf8")).toBe("mine");
    expect(existsSync(creatingMarker(dir))).toBe(false);
  });
});
