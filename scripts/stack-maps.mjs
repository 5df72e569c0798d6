// Source-mapped stack traces without parsing every source map at start-up. Node's own source maps
// (`--enable-source-maps`, `process.setSourceMapsEnabled`) read and parse the map of every module as
// it loads: with Next's server chunks (27 MB of maps) that was ~0.7 s of each start's ~3.4 s here. Next
// already formats logged errors through its own lookup (next/dist/server/patch-error-inspect.js: an
// error given to console.error is mapped frame by frame); this gives that lookup the maps from disk,
// read the first time a frame of that file is printed, as Next's own development worker does.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIND_SOURCE_MAP = Symbol.for("next.dev.bundlerFindSourceMap");

/** The map of a generated file under `root`, by its URL or path; undefined when it has none. */
export function diskSourceMaps(root) {
  const payloads = new Map();
  return function find(sourceURL) {
    let file = sourceURL;
    if (file.startsWith("file://")) {
      try {
        file = fileURLToPath(file);
      } catch {
        return undefined;
      }
    }
    if (!path.isAbsolute(file) || !file.startsWith(root + path.sep)) return undefined;
    if (payloads.has(file)) return payloads.get(file);
    let payload;
    try {
      payload = JSON.parse(readFileSync(`${file}.map`, "utf8"));
    } catch {
      payload = undefined;
    }
    payloads.set(file, payload);
    return payload;
  };
}

export function installStackMaps(root) {
  globalThis[FIND_SOURCE_MAP] = diskSourceMaps(root);
}
