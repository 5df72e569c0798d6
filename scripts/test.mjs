#!/usr/bin/env node
// `npm test`: typecheck, lint, formatting, the OpenAPI lint, unit tests, production build, integration tests on PGlite and on a
// throwaway PostgreSQL cluster, the scale test (nginx in front of two instances on PostgreSQL) and
// end-to-end tests in Debian's Chromium. Installs PostgreSQL, nginx and Chromium with apt-get when
// missing and running as root; otherwise says exactly what to install.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { aptInstall } from "./apt.mjs";
import { digest } from "./test-digest.mjs";
import { findNginx } from "./nginx.mjs";
import { findPgBin, startCluster } from "./pg-cluster.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
// Debian's Chromium, in its headless shell build when there is one (package chromium-headless-shell: the same
// Chromium without the browser's UI, as Playwright's own headless mode uses). Chromium was ~76% of the
// end-to-end step's CPU; with the shell the quality gate's en/desktop test took 71 s instead of 84 s.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_CHROMIUM = "/usr/bin/chromium";
let CHROMIUM = process.env.CHROMIUM_PATH ?? HEADLESS_SHELL;
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const results = [];
const started = Date.now();
// Each test step also writes a JSON report here; on failure its first lines are repeated at the very end of the
// output (CI shows only the tail of a long run, and "1 failed" alone does not say what to fix).
const reports = mkdtempSync(path.join(tmpdir(), "expo-trade-reports-"));

// Interrupted (Ctrl-C, a CI timeout's SIGTERM): each running step's process group gets the signal (the
// step, its workers and the servers they started; each step runs in a group of its own), and the
// PostgreSQL cluster, which pg_ctl started in its own session, is stopped and removed instead of left running.
const running = new Set();
let cluster = null;
for (const sig of ["SIGINT", "SIGTERM"])
  process.once(sig, () => {
    console.error(`\n${sig}: stopping the running steps`);
    for (const child of running) {
      try {
        process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    }
    cluster?.stop();
    process.exit(sig === "SIGINT" ? 130 : 143);
  });

/** Runs a step with its output on ours; `buffered`: collected and printed whole when it ends (steps side by side). */
function step(label, cmd, cmdArgs, env = {}, report = null, buffered = false) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    if (!buffered) console.log(`\n=== ${label} ===`);
    const chunks = [];
    const child = spawn(cmd, cmdArgs, {
      detached: true,
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    });
    running.add(child);
    if (buffered) for (const s of [child.stdout, child.stderr]) s.on("data", (d) => chunks.push(d));
    child.on("close", (code, signal) => {
      running.delete(child);
      const ok = code === 0;
      const result = { label, ok, seconds: Math.round((Date.now() - t0) / 1000), report };
      const print = () => {
        if (buffered) {
          console.log(`\n=== ${label} ===`);
          process.stdout.write(Buffer.concat(chunks));
        }
        if (!ok) console.error(`--- ${label} failed (${signal ?? `exit ${code}`})`);
      };
      resolve({ ok, result, print });
    });
  });
}

async function run(label, cmd, cmdArgs, env = {}, report = null) {
  const { ok, result, print } = await step(label, cmd, cmdArgs, env, report);
  print();
  results.push(result);
  return ok;
}

/**
 * Steps that need one core each, two at a time (the runner has two); printed and reported in their order. An
 * entry that is a list of steps runs them one after the other on one lane (a step that needs another's output).
 */
async function sideBySide(entries) {
  const chains = entries.map((e) => (Array.isArray(e[0]) ? e : [e]));
  const done = chains.map(() => []);
  let next = 0;
  const worker = async () => {
    while (next < chains.length) {
      const i = next++;
      for (const [label, cmd, cmdArgs, env = {}, report = null] of chains[i]) done[i].push(await step(label, cmd, cmdArgs, env, report, true));
    }
  };
  await Promise.all([worker(), worker()]);
  for (const d of done.flat()) {
    d.print();
    results.push(d.result);
  }
}

function ensurePrerequisites(need) {
  const missing = [];
  if (need.postgres && !findPgBin()) {
    if (!aptInstall(["postgresql"]) || !findPgBin())
      missing.push("PostgreSQL server (Debian: apt-get install postgresql; or set PG_BIN to the directory holding initdb and pg_ctl)");
  }
  if (need.nginx && !findNginx()) {
    if (!aptInstall(["nginx"]) || !findNginx()) missing.push("nginx (Debian: apt-get install nginx; or set NGINX_BIN to the nginx binary)");
  }
  if (need.chromium && !existsSync(CHROMIUM) && !process.env.CHROMIUM_PATH) {
    // The headless shell, else the full browser (installed or installable).
    if (!aptInstall(["chromium-headless-shell"]) || !existsSync(HEADLESS_SHELL)) CHROMIUM = FULL_CHROMIUM;
  }
  if (need.chromium && !existsSync(CHROMIUM)) {
    if (CHROMIUM !== FULL_CHROMIUM || !aptInstall(["chromium"]) || !existsSync(CHROMIUM))
      missing.push("Chromium (Debian: apt-get install chromium-headless-shell, or chromium; or set CHROMIUM_PATH)");
  }
  // CJK fonts only make screenshots legible in zh/ja/ko; nothing fails without them.
  if (need.chromium && !existsSync("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")) aptInstall(["fonts-noto-cjk"]);
  if (missing.length) {
    console.error(`\nnpm test needs software that is not installed and could not be installed here:\n${missing.map((m) => `  - ${m}`).join("\n")}\n`);
    process.exit(2);
  }
}

/** `vitest run --project <project>` with the default reporter plus a JSON report for the digest. */
let reportNo = 0;
function vitestStep(label, project, env = {}) {
  const name = `${project}-${++reportNo}`;
  // The shared server's output too (tests/support/global-setup.ts): the digest shows what it logged for a failed request.
  const report = { kind: "vitest", file: path.join(reports, `${name}.json`), serverLog: path.join(reports, `${name}-server.log`) };
  const args = ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report.file}`];
  return [label, bin("vitest"), args, { EXPO_TEST_SERVER_LOG: report.serverLog, ...env }, report];
}
const vitest = (label, project, env = {}) => run(...vitestStep(label, project, env));

async function integration(cluster) {
  const ok = await vitest("integration tests on PGlite", "integration", { DATABASE_URL: "" });
  const pgOk = await vitest("integration tests on PostgreSQL", "integration", { DATABASE_URL: cluster.url("postgres") });
  return ok && pgOk;
}

async function main() {
  const want = (step) => !only || only === step;
  ensurePrerequisites({ postgres: want("integration") || want("scale"), nginx: want("scale"), chromium: want("e2e") });
  // The servers under test run the production build; `--only scale` reuses an existing one.
  const build = want("integration") || want("e2e") || (only === "scale" && !existsSync(path.join(root, ".next", "BUILD_ID")));
  // The build (mostly one core), the single-threaded checks and the unit tests, two at a time; the build first,
  // as it takes longest. With a build, the typecheck follows it on its lane and checks the route types it wrote
  // too (tsconfig.json, what next build's own pass checks: skipped there, BUILD_TYPECHECKED_APART); without one,
  // the sources alone (tsconfig.typecheck.json).
  const typecheck = ["typecheck", bin("tsc"), ["--noEmit", "-p", build ? "tsconfig.json" : "tsconfig.typecheck.json"]];
  // A fresh checkout (no .next yet, as on CI) builds without Turbopack's build cache, which nothing would read.
  const buildEnv = { ...(want("static") ? { BUILD_TYPECHECKED_APART: "1" } : {}), ...(existsSync(path.join(root, ".next")) ? {} : { BUILD_FS_CACHE: "0" }) };
  const buildStep = ["production build", process.execPath, ["scripts/build.mjs"], buildEnv];
  await sideBySide([
    ...(build ? [want("static") ? [buildStep, typecheck] : buildStep] : []),
    ...(want("static")
      ? [
          ...(build ? [] : [typecheck]),
          ...(want("unit") ? [vitestStep("unit tests", "unit")] : []),
          ["lint", bin("eslint"), ["--max-warnings", "0", "."]],
          ["formatting", bin("prettier"), ["--check", "--log-level", "warn", "."]],
          ["OpenAPI lint (Redocly recommended, Spectral spectral:oas)", process.execPath, ["--import", "tsx", "scripts/openapi-lint.ts"]],
        ]
      : want("unit")
        ? [vitestStep("unit tests", "unit")]
        : []),
  ]);
  if (build && !results.some((r) => r.label === "production build" && r.ok)) return;
  if (want("integration")) {
    cluster = await startCluster();
    try {
      await integration(cluster);
    } finally {
      cluster.stop();
      cluster = null;
    }
  }
  if (want("scale")) await vitest("scale test (nginx + 2 instances + PostgreSQL)", "scale");
  if (want("e2e")) {
    const report = { kind: "playwright", file: path.join(reports, "e2e.json") };
    await run(
      "end-to-end tests (Chromium)",
      bin("playwright"),
      ["test", "--reporter=list,json"],
      { CHROMIUM_PATH: CHROMIUM, PLAYWRIGHT_JSON_OUTPUT_FILE: report.file },
      report,
    );
  }
}

main()
  .catch((err) => {
    console.error(err);
    results.push({ label: "test runner", ok: false, seconds: 0 });
  })
  .finally(() => {
    const passed = results.filter((r) => r.ok).length;
    const failed = results.length - passed;
    console.log("\n=== summary ===");
    for (const r of results) console.log(`${r.ok ? "PASS" : "FAIL"}  ${r.label} (${r.seconds} s)`);
    console.log(`total ${Math.round((Date.now() - started) / 1000)} s`);
    const why = digest(results, root);
    if (why.length) console.log(`\n=== what failed ===\n${why.join("\n")}`);
    const failedLabels = results.filter((r) => !r.ok).map((r) => r.label);
    console.log(`steps: ${passed} passed, ${failed} failed${failed ? ` (${failedLabels.join("; ")})` : ""}`);
    process.exit(failed ? 1 : 0);
  });
