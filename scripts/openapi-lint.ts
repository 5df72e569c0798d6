// Lints the OpenAPI document the server publishes at /api/openapi (contract 9.5): Redocly's
// `recommended` rules must report no error and Spectral's `spectral:oas` no warning. Writes the
// document to a temporary file, so no server or build is needed. Nothing here reaches the network.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openApiDocument } from "@/lib/openapi/document";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const dir = mkdtempSync(path.join(tmpdir(), "expo-openapi-"));
const file = path.join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));

const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" };
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" }).status === 0;
try {
  // Redocly exits non-zero on errors only; its remaining warnings are printed for the reader.
  const redocly = run(bin("redocly"), ["lint", "--config", path.join(root, "redocly.yaml"), "--format", "stylish", file]);
  // Spectral's --fail-severity=warn turns any warning into a failure.
  const spectral = run(bin("spectral"), ["lint", "--ruleset", path.join(root, ".spectral.yaml"), "--fail-severity", "warn", file]);
  if (!redocly || !spectral) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
