import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { diskSourceMaps } from "@/scripts/stack-maps.mjs";

describe("diskSourceMaps", () => {
  const root = mkdtempSync(path.join(tmpdir(), "expo-trade-maps-"));
  mkdirSync(path.join(root, "server"));
  const chunk = path.join(root, "server", "chunk.js");
  writeFileSync(chunk, "throw new Error('x');\n//# sourceMappingURL=chunk.js.map\n");
  const map = { version: 3, sources: ["../../lib/x.ts"], names: [], mappings: "AAAA" };
  writeFileSync(`${chunk}.map`, JSON.stringify(map));

  it("reads a generated file's map by path or file URL, once", () => {
    const find = diskSourceMaps(root);
    expect(find(chunk)).toEqual(map);
    const first = find(pathToFileURL(chunk).href);
    expect(first).toEqual(map);
    writeFileSync(`${chunk}.map`, JSON.stringify({ ...map, sources: ["changed.ts"] }));
    expect(find(chunk)).toBe(first);
    writeFileSync(`${chunk}.map`, JSON.stringify(map));
  });

  it("has nothing for files outside its directory (even with a map beside them), without a map, or not on disk", () => {
    const find = diskSourceMaps(root);
    expect(find(path.join(root, "server", "none.js"))).toBeUndefined();
    // Real files with maps, outside the directory: only the directory check refuses them.
    const sibling = path.join(`${root}-sibling`, "chunk.js");
    mkdirSync(path.dirname(sibling), { recursive: true });
    for (const f of [sibling, `${root}.js`]) {
      writeFileSync(f, "x\n");
      writeFileSync(`${f}.map`, JSON.stringify(map));
      expect(find(f)).toBeUndefined();
    }
    expect(find("node:internal/process/task_queues")).toBeUndefined();
    expect(find("<anonymous>")).toBeUndefined();
  });

  it("has nothing for a map that is not JSON", () => {
    const bad = path.join(root, "server", "bad.js");
    writeFileSync(`${bad}.map`, "{ not json");
    expect(diskSourceMaps(root)(bad)).toBeUndefined();
  });
});
