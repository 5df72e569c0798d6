#!/usr/bin/env node
// `npm start`: build when the sources are newer than the last build, then run the custom server
// (which migrates and seeds the database before it listens).
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const SOURCES = ["app", "components", "lib", "messages", "public", "proxy.ts", "next.config.ts", "package.json", "package-lock.json", "postcss.config.mjs"];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

const buildId = path.join(root, ".next", "BUILD_ID");
const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
if (process.env.SKIP_BUILD !== "1" && Math.max(...SOURCES.map(newest)) > builtAt) {
  console.log("Building Expo Trade (first start or sources changed)…");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// tsx as a loader in this very process (not its CLI, whose signal relay SIGKILLs a busy child):
// SIGTERM reaches server.ts itself, which shuts down gracefully.
const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
