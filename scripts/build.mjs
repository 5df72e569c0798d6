#!/usr/bin/env node
// The production build (`npm run build`): Next's build in `.next/`, then the custom server (server.ts and
// the lib/ it imports) bundled by esbuild into one file beside it, which scripts/serve.mjs runs with
// plain node (`npm start`, the tests, the bench). Loading lib/ through tsx instead cost ~1.2 s of CPU at
// every start (4.6 against 3.4 s here; the tests start ~100 servers a run) and nothing after.
// `npm run dev` still runs server.ts through tsx: development reloads the sources.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_BUNDLE = path.join(root, ".next", "expo-server.mjs");
/** What the build is made of: a change to any of these makes it stale. */
const SOURCES = [
  "app",
  "components",
  "lib",
  "messages",
  "public",
  "server.ts",
  "proxy.ts",
  "next.config.ts",
  "package.json",
  "package-lock.json",
  "postcss.config.mjs",
];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const sourcesChangedAt = () => Math.max(...SOURCES.map((s) => newest(path.join(root, s))));

/** One file; the packages in node_modules stay outside it and load as they did. */
export async function bundleServer() {
  const { build } = await import("esbuild");
  const { outputFiles } = await build({
    entryPoints: [path.join(root, "server.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    sourcesContent: false,
    outfile: SERVER_BUNDLE,
    write: false,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
  });
  // Whole files only (several test workers may bundle at once on a hand-run): the map first, then the code naming it.
  for (const f of outputFiles.sort((a, b) => Number(b.path.endsWith(".map")) - Number(a.path.endsWith(".map")))) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
}

function nextBuild() {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/**
 * Brings the build up to the sources: Next's build when any source is newer than it (`npm start`, `npm run
 * security`, the bench), the server's bundle when it is missing or older. `build: false` (scripts/serve.mjs:
 * the tests, `npm run serve`) refuses an old Next build instead: its pages beside a server from newer sources
 * share their caches on globalThis, and an old cache shape once made fresh queries answer 500.
 */
export async function ensureBuilt({ log = console.log, build = true } = {}) {
  const changed = sourcesChangedAt();
  if (changed > builtAt(path.join(root, ".next", "BUILD_ID"))) {
    if (!build)
      throw new Error("The production build (.next) is older than the sources: run `npm run build` first (npm test and npm start build by themselves).");
    log("Building Expo Trade (first start or sources changed)…");
    nextBuild();
  }
  if (changed > builtAt(SERVER_BUNDLE)) await bundleServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  nextBuild();
  await bundleServer();
  console.log(`server bundled into ${path.relative(root, SERVER_BUNDLE)}`);
}
