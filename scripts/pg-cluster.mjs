// A throwaway PostgreSQL cluster on a free port, for the integration tests on a real server.
// As root, initdb/postgres run as the `postgres` user (they refuse root) in a directory it owns.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export function findPgBin() {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(path.join(fromEnv, "initdb"))) return fromEnv;
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(path.join(base, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(base, versions[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  return null;
}

/** A free TCP port on 127.0.0.1 (scripts and the bench share this one). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** `settings`: extra server settings (`-c name=value`), e.g. the bench's shared_buffers. */
export async function startCluster({ settings = {} } = {}) {
  const bin = findPgBin();
  if (!bin) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found");
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "expo-trade-pg-"));
  chmodSync(dir, 0o755);
  const data = path.join(dir, "data");
  const run = (cmd, args) => {
    const full = path.join(bin, cmd);
    return isRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", full, ...args], { stdio: "pipe", encoding: "utf8" })
      : execFileSync(full, args, { stdio: "pipe", encoding: "utf8" });
  };
  if (isRoot) execFileSync("chown", ["postgres:", dir]);
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    data,
    "-o",
    [
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
    ].join(" "),
    "-l",
    path.join(dir, "log"),
    "-w",
    "start",
  ]);
  const url = (db = "postgres") => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    port,
    dir,
    url,
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
