#!/usr/bin/env node
// `npm start`: build when the sources are newer than the last build, then run the custom server
// (which migrates and seeds the database before it listens).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
await ensureBuilt();
// The server in its own process (scripts/serve.mjs): SIGTERM reaches it, and it shuts down gracefully.
const child = spawn(process.execPath, ["scripts/serve.mjs"], {
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
