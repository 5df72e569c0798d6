// Debian packages a script needs (PostgreSQL, Chromium, wrk, ...): installed with apt-get when
// running as root on Debian; otherwise the caller says exactly what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function aptInstall(pkgs) {
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) return false;
  console.log(`\n=== installing ${pkgs.join(", ")} with apt-get ===`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  return spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...pkgs], { stdio: "inherit", env }).status === 0;
}
