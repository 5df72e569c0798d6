#!/usr/bin/env node
// Runs the built server (server.ts bundled by scripts/build.mjs) in this process: `npm start` after its
// build, `npm run serve`, the tests, the bench. Stack traces name the TypeScript sources (source maps, read when a
// stack is printed: scripts/stack-maps.mjs).
import { pathToFileURL } from "node:url";
import path from "node:path";
import { ensureBuilt, SERVER_BUNDLE } from "./build.mjs";
import { installStackMaps } from "./stack-maps.mjs";

try {
  await ensureBuilt({ build: false });
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
installStackMaps(path.dirname(SERVER_BUNDLE));
await import(pathToFileURL(SERVER_BUNDLE).href);
