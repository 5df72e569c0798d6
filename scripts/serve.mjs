#!/usr/bin/env node
// Runs the built server (server.ts bundled by scripts/build.mjs) in this process: `npm start` after its
// build, `npm run serve`, the tests, the bench. Stack traces name the TypeScript sources (source map).
import { pathToFileURL } from "node:url";
import { ensureBuilt, SERVER_BUNDLE } from "./build.mjs";

try {
  await ensureBuilt({ build: false });
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(SERVER_BUNDLE).href);
