// nginx as a load balancer for tests: Debian's binary, run in the foreground with docs/nginx.conf
// (the documented configuration) inside a generated nginx.conf whose pid file, logs and temporary
// directories live in a temporary prefix, so it runs with or without root.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function findNginx() {
  const candidates = [process.env.NGINX_BIN, "/usr/sbin/nginx"];
  for (const c of candidates) if (c && existsSync(c)) return c;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

/** docs/nginx.conf with the example addresses replaced; `serverExtra` goes into its server block. */
export function siteConfig({ port, upstreams, serverExtra = "" }) {
  const examples = ["10.0.0.11:3000", "10.0.0.12:3000"];
  if (upstreams.length !== examples.length) throw new Error(`docs/nginx.conf names ${examples.length} instances`);
  let conf = readFileSync(path.join(root, "docs", "nginx.conf"), "utf8");
  const replace = (from, to) => {
    if (!conf.includes(from)) throw new Error(`docs/nginx.conf no longer contains "${from}"`);
    conf = conf.replace(from, to);
  };
  examples.forEach((ex, i) => replace(`server ${ex} `, `server ${upstreams[i]} `));
  replace("listen 80;", `listen 127.0.0.1:${port};`);
  if (serverExtra) replace("  server_name expo.example.com;\n", `  server_name expo.example.com;\n${serverExtra}\n`);
  return conf;
}

export async function startNginx({ port, upstreams, serverExtra }) {
  const bin = findNginx();
  if (!bin) throw new Error("nginx not found (Debian: apt-get install nginx; or set NGINX_BIN)");
  const dir = mkdtempSync(path.join(tmpdir(), "expo-trade-nginx-"));
  // As root the workers run as nobody: they must reach the temporary directories nginx creates here.
  chmodSync(dir, 0o755);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${dir}/${t}_temp;`).join("\n");
  const conf = `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
${temp}
${siteConfig({ port, upstreams, serverExtra })}
}
`;
  const file = path.join(dir, "nginx.conf");
  writeFileSync(file, conf);
  let output = "";
  const child = spawn(bin, ["-c", file, "-p", dir, "-e", `${dir}/error.log`, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const log = () => {
    const errors = existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, "utf8") : "";
    return `${output}${errors}`;
  };
  const deadline = Date.now() + 10_000;
  // nginx writes its pid file once it holds the listening socket (an open port alone could be
  // somebody else's server).
  while (!existsSync(`${dir}/nginx.pid`)) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${log()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not listen on ${port}:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    pid: child.pid,
    log,
    /** Access log lines so far. */
    accessLog: () => (existsSync(`${dir}/access.log`) ? readFileSync(`${dir}/access.log`, "utf8") : ""),
    stop() {
      return new Promise((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once("exit", done);
        // SIGQUIT: graceful shutdown of nginx (SIGTERM would be the fast one).
        child.kill("SIGQUIT");
        setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 5000).unref();
      });
    },
  };
}
