#!/usr/bin/env node
// `npm run bench` (issues #6, #12): generates the seeded data set, then runs the scenarios against
// the production build on a throwaway PostgreSQL cluster and on PGlite, each paired with its
// baseline (A B A B after a warm-up). Writes bench/results/<time>.json, prints the table and, on a
// full run, rewrites the generated part of BENCHMARKS.md.
//
//   npm run bench                       full run (about 60 min on a quiet 2-core machine)
//   npm run bench -- --quick            short smoke run (20k products, short rounds; no BENCHMARKS.md)
//   npm run bench -- --only 2,3 --engines pg --products 50000 --write
//   npm run bench -- --only 3 --merge bench/results/<run>.json   re-run scenarios into an earlier run
//   npm run bench -- --only 9 --engines pg --products 1000000    uncached head terms at 1M products
//   (--reuse-data keeps PGlite's generated directories from the previous run)
//   --pg-url URL: PostgreSQL's scenarios on that database instead of a new cluster. Its public schema is
//   replaced by new data, unless --reuse-data finds bench/.data/pg/manifest.json from an earlier run on it
//   (a million products take 11 minutes to generate; figures from a kept database are for a diagnosis)
//   BENCH_APP_FLAGS="--max-semi-space-size=64" npm run bench ...: Node flags for the app under test
//   --statements: pg_stat_statements' costliest statements per scenario; --live 2,60: scenario 8's rounds and seconds
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { aptInstall } from "../scripts/apt.mjs";
import { ensureBuilt } from "../scripts/build.mjs";
import { findPgBin, startCluster } from "../scripts/pg-cluster.mjs";
import { freePort, httpReady, LOAD_CPU, PINNING, ROOT, rssMb, SERVER_CPU, startProcess } from "./lib/proc.mjs";
import { judge, mergeResults, renderTable, writeBenchmarksMd } from "./report.mjs";
import { chatScenario } from "./scenarios/chat.mjs";
import { settle } from "./scenarios/common.mjs";
import { headTermScenario } from "./scenarios/head-terms.mjs";
import { healthScenario, listScenario, loginScenario, searchScenario, soakScenario, ssrScenario } from "./scenarios/http.mjs";
import { liveScenario } from "./scenarios/live.mjs";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const quick = flag("--quick");
const engines = opt("--engines", "pg,pglite").split(",");
const only = opt("--only", "1,2,3,4,5,6,7,8,9").split(",").map(Number);
const merge = opt("--merge", null);
const pgUrl = opt("--pg-url", null);
const write = flag("--write") || !!merge || (!quick && !args.includes("--only") && !args.includes("--engines"));

// The load generator (this process, wrk, the socket clients) runs on CPU 1; servers on CPU 0.
if (PINNING && !process.env.BENCH_PINNED) {
  const r = spawnSync("taskset", ["-c", LOAD_CPU, process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_PINNED: "1" },
  });
  process.exit(r.status ?? 1);
}

const cfg = quick
  ? {
      products: 20_000,
      rounds: 2,
      warmSeconds: 2,
      roundSeconds: 3,
      openSeconds: 5,
      profileSeconds: 3,
      searchSample: 40,
      searchRounds: 1,
      searchRate: 20,
      searchBudget: 30,
      recallBudget: 60,
      recallQueries: 20,
      recallFullMax: 1000,
      listRate: 100,
      loginSeconds: 5,
      ssrSeconds: 4,
      sockets: 200,
      soakSeconds: 30,
      soakWindow: 10,
      live: { rounds: 2, seconds: 20, warm: 5, gap: 5, probeEvery: 3 },
      liveLite: { rounds: 2, seconds: 10, warm: 5, gap: 5, probeEvery: 3 },
      head: { rounds: 2, reps: 5, baseReps: 1, budget: 20 },
    }
  : {
      products: 100_000,
      rounds: 3,
      warmSeconds: 3,
      roundSeconds: 6,
      openSeconds: 15,
      profileSeconds: 5,
      searchSample: 60,
      searchRounds: 2,
      searchRate: 20,
      searchBudget: 60,
      recallBudget: 150,
      recallQueries: 60,
      recallFullMax: 2000,
      listRate: 100,
      loginSeconds: 10,
      ssrSeconds: 10,
      sockets: 1000,
      soakSeconds: 300,
      soakWindow: 60,
      // Scenario 8: 5 x (60 s with writes, 60 s without) on PostgreSQL, 2 x 30 s on PGlite (as #7);
      // scenario 9: rounds of `reps` requests per head term on the app, `baseReps` on the baseline.
      live: { rounds: 5, seconds: 60, warm: 20, gap: 10, probeEvery: 3 },
      liveLite: { rounds: 2, seconds: 30, warm: 10, gap: 10, probeEvery: 3 },
      head: { rounds: 3, reps: 20, baseReps: 2, budget: 45 },
    };
cfg.products = Number(opt("--products", cfg.products));
// --live ROUNDS,SECONDS: a shorter (or longer) scenario 8 on PostgreSQL, e.g. for a diagnosis.
if (args.includes("--live")) {
  const [liveRounds, liveSeconds] = opt("--live").split(",").map(Number);
  cfg.live = { ...cfg.live, rounds: liveRounds, seconds: liveSeconds };
}
if (args.includes("--soak")) cfg.soakSeconds = Number(opt("--soak"));
// PGlite runs the soak shorter (one process serves every query; see BENCHMARKS.md).
const soakFor = (engine) => (engine === "pglite" && !args.includes("--soak") ? Math.min(cfg.soakSeconds, quick ? 30 : 120) : cfg.soakSeconds);

/** PostgreSQL's settings beyond the test cluster's (fsync off, 200 connections): a quarter of this 24 GiB machine would be 6 GB; 1 GB holds the 100k catalog. */
const PG_SETTINGS = { shared_buffers: "1GB", effective_cache_size: "4GB" };
// --statements: pg_stat_statements on, and each scenario's 15 costliest statements (by total time) in its row.
const statements = flag("--statements");
if (statements) Object.assign(PG_SETTINGS, { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" });
const SECRET = "bench-auth-secret-0123456789abcdef0123456789";
const work = path.join(ROOT, "bench", ".data");

/** PGlite: the baselines' own copy of the app's data directory (the app holds a lock on its own). */
function copyBaselineData(from, to) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
const log = (m) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

function prerequisites() {
  const missing = [];
  if (spawnSync("sh", ["-c", "command -v wrk"]).status !== 0 && (!aptInstall(["wrk"]) || spawnSync("sh", ["-c", "command -v wrk"]).status !== 0)) {
    missing.push("wrk (Debian: apt-get install wrk)");
  }
  if (engines.includes("pg") && !findPgBin() && (!aptInstall(["postgresql"]) || !findPgBin())) {
    missing.push("PostgreSQL server (Debian: apt-get install postgresql; or set PG_BIN)");
  }
  if (missing.length) {
    console.error(`\nnpm run bench needs software that is not installed and could not be installed here:\n${missing.map((m) => `  - ${m}`).join("\n")}\n`);
    process.exit(2);
  }
}

function tsx(script, scriptArgs, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...scriptArgs], { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`))));
  });
}

const appEnv = (dbEnv, dataDir, port) => ({
  NODE_ENV: "production",
  PORT: String(port),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  NEXTAUTH_URL: `http://localhost:${port}`,
  AUTH_SECRET: SECRET,
  SEED_DEMO: "0",
  RATE_LIMIT_ANON_PER_HOUR: "1000000000",
  RATE_LIMIT_USER_PER_HOUR: "1000000000",
  WS_RATE_LIMIT_MESSAGES: "1000000000",
  // Each bench socket speaks for many users at once (200 sockets in --quick carry ~5,000 msg/s): the
  // per-connection frame allowance (20 a second) would drop their frames, which the storing relay never does.
  WS_FRAMES_PER_SECOND: "1000000000",
  WS_FRAME_BURST: "1000000000",
  DATABASE_URL: "",
  PGLITE_DIR: "",
  ...dbEnv,
});

async function prepareEngine(engine, cluster) {
  const dir = path.join(work, engine);
  const manifestFile = path.join(dir, "manifest.json");
  // --reuse-data: PGlite's directories from the previous run; PostgreSQL's database given by --pg-url.
  if (flag("--reuse-data") && engine === "pg" && pgUrl && existsSync(manifestFile)) {
    log(`${engine}: reusing the data of ${pgUrl}`);
    if (!existsSync(path.join(dir, "list-sql.json"))) await tsx("bench/capture-sql.ts", [manifestFile, path.join(dir, "list-sql.json")], {});
    return {
      dir,
      dbEnv: { DATABASE_URL: pgUrl },
      baselineEnv: { DATABASE_URL: pgUrl },
      generateSeconds: 0,
      manifest: JSON.parse(readFileSync(manifestFile, "utf8")),
    };
  }
  if (
    flag("--reuse-data") &&
    engine === "pglite" &&
    existsSync(manifestFile) &&
    existsSync(path.join(dir, "pglite-baseline")) &&
    existsSync(path.join(dir, "list-sql.json"))
  ) {
    log(`${engine}: reusing the data of the previous run`);
    // The baselines' copy again: the app's directory holds the previous run's writes (scenarios 4, 7, 8), and
    // answers are compared on the same rows.
    copyBaselineData(path.join(dir, "pglite"), path.join(dir, "pglite-baseline"));
    return {
      dir,
      dbEnv: { PGLITE_DIR: path.join(dir, "pglite") },
      baselineEnv: { PGLITE_DIR: path.join(dir, "pglite-baseline") },
      generateSeconds: 0,
      manifest: JSON.parse(readFileSync(manifestFile, "utf8")),
    };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let dbEnv;
  let baselineEnv;
  if (engine === "pg") {
    if (pgUrl)
      spawnSync("psql", [pgUrl, "-qc", "drop schema public cascade; create schema public; drop schema if exists drizzle cascade"], { stdio: "inherit" });
    else spawnSync("psql", [cluster.url("postgres"), "-qc", "create database bench"], { stdio: "inherit" });
    dbEnv = { DATABASE_URL: pgUrl ?? cluster.url("bench") };
    baselineEnv = dbEnv;
  } else {
    dbEnv = { PGLITE_DIR: path.join(dir, "pglite") };
    baselineEnv = { PGLITE_DIR: path.join(dir, "pglite-baseline") };
  }
  log(`${engine}: generating ${cfg.products} products`);
  const t0 = Date.now();
  await tsx("bench/generate.ts", ["--out", dir, "--products", String(cfg.products)], { ...appEnv(dbEnv, dir, 0), AUTH_SECRET: SECRET });
  const generateSeconds = (Date.now() - t0) / 1000;
  await tsx("bench/capture-sql.ts", [path.join(dir, "manifest.json"), path.join(dir, "list-sql.json")], {});
  if (engine === "pglite") copyBaselineData(dbEnv.PGLITE_DIR, baselineEnv.PGLITE_DIR);
  return { dir, dbEnv, baselineEnv, generateSeconds, manifest: JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) };
}

let partial = null;

async function runEngine(engine, prepared) {
  const { dir, dbEnv, baselineEnv, manifest } = prepared;
  // Each app process profiles into its own directory (the hook numbers its files per process).
  let started = 0;
  const startApp = async (name, env = {}) => {
    const port = await freePort();
    const profileDir = path.join(dir, "profiles", `${name}-${++started}`);
    mkdirSync(profileDir, { recursive: true });
    const proc = await startProcess({
      name,
      args: [...(process.env.BENCH_APP_FLAGS ? process.env.BENCH_APP_FLAGS.split(" ") : []), "scripts/serve.mjs"],
      env: { ...appEnv(dbEnv, dir, port), ...env },
      ready: httpReady(`http://127.0.0.1:${port}/api/health`),
      profileDir,
    });
    return { ...proc, base: `http://127.0.0.1:${port}` };
  };
  log(`${engine}: starting the app`);
  const app = await startApp("app");
  const baselines = [];
  let catalog = null;
  const ctx = {
    engine,
    app,
    manifest,
    workDir: dir,
    cfg: { ...cfg, soakSeconds: soakFor(engine) },
    rss: rssMb,
    pathsFile(name, paths) {
      const f = path.join(dir, `paths-${name}.txt`);
      writeFileSync(f, paths.join("\n") + "\n");
      return f;
    },
    async baseline(name, script, env) {
      const p = await freePort();
      const b = await startProcess({
        name,
        args: script.endsWith(".ts") ? ["--import", "tsx", script] : [script],
        env: { NODE_ENV: "production", PORT: String(p), DATABASE_URL: "", PGLITE_DIR: "", ...baselineEnv, ...env },
        ready: async () => (await fetch(`http://127.0.0.1:${p}/`)).status > 0,
      });
      const out = { ...b, base: `http://127.0.0.1:${p}` };
      baselines.push(out);
      return out;
    },
    /** The raw-driver catalog baseline (scenarios 2, 3, 6); restarted when it needs SSR snapshots. */
    async catalogBaseline(env = {}) {
      if (catalog && !env.BENCH_SSR_DIR) return catalog;
      if (catalog) await catalog.stop();
      catalog = await ctx.baseline("catalog", "bench/servers/catalog.ts", { BENCH_SQL: path.join(dir, "list-sql.json"), ...env });
      return catalog;
    },
    /**
     * Run `fn` against a second instance of the app started with `env` on the same data (e.g.
     * SEARCH_CACHE_MB=0). PGlite allows one process per data directory: there the app is stopped
     * meanwhile and started again afterwards (ctx.app keeps working: the object is updated).
     */
    async withApp(env, fn, opts = {}) {
      if (engine === "pglite") await app.stop();
      // PGlite: the baselines read a copy of the data (the app locks its own). `freshBaseline`: made again from the
      // app's while it is stopped, after earlier scenarios' writes (#4, #7, #8), before the catalog baseline starts.
      if (engine === "pglite" && opts.freshBaseline) {
        if (catalog) await catalog.stop();
        catalog = null;
        copyBaselineData(dbEnv.PGLITE_DIR, baselineEnv.PGLITE_DIR);
      }
      try {
        const variant = await startApp("app-variant", env);
        try {
          return await fn(variant);
        } finally {
          await variant.stop();
        }
      } finally {
        if (engine === "pglite") Object.assign(app, await startApp("app"));
      }
    },
    staticPages() {
      try {
        const m = JSON.parse(readFileSync(path.join(ROOT, ".next", "prerender-manifest.json"), "utf8"));
        const routes = Object.keys(m.routes ?? {});
        const dynamicRoutes = Object.keys(m.dynamicRoutes ?? {});
        return {
          prerendered: routes.length,
          revalidated: routes.filter((r) => m.routes[r].initialRevalidateSeconds).length,
          productPagePrerendered: dynamicRoutes.some((r) => r.includes("products/[id]")),
        };
      } catch {
        return null;
      }
    },
  };
  const scenarios = [
    [1, healthScenario],
    [2, listScenario],
    [3, searchScenario],
    [4, chatScenario],
    [5, loginScenario],
    [6, ssrScenario],
    [7, soakScenario],
    [8, liveScenario],
    [9, headTermScenario],
  ];
  const rows = [];
  try {
    for (const [id, fn] of scenarios) {
      if (!only.includes(id)) continue;
      log(`${engine}: scenario ${id}`);
      await settle(app.base);
      const t0 = Date.now();
      if (statements && dbEnv.DATABASE_URL) psql(dbEnv.DATABASE_URL, "create extension if not exists pg_stat_statements; select pg_stat_statements_reset()");
      try {
        const r = judge({ ...(await fn(ctx)), engine });
        if (statements && dbEnv.DATABASE_URL) r.statements = topStatements(dbEnv.DATABASE_URL);
        rows.push({ ...r, seconds: Math.round((Date.now() - t0) / 1000) });
        partial?.(rows);
        log(`${engine}: scenario ${id} ${r.met ? "met" : "MISSED"}: ${r.measured}`);
      } catch (err) {
        console.error(err);
        rows.push({
          id,
          engine,
          name: `scenario ${id}`,
          failed: String(err?.stack ?? err).slice(0, 2000),
          met: false,
          measured: `failed: ${String(err?.message ?? err).slice(0, 200)}`,
        });
        if (app.child.exitCode !== null) throw new Error(`the app died:\n${app.output()}`);
      }
    }
  } finally {
    for (const b of baselines) await b.stop();
    await app.stop();
  }
  return rows;
}

function psql(url, command) {
  const r = spawnSync("psql", [url, "-qAtc", command], { encoding: "utf8" });
  if (r.status !== 0) console.error(`psql: ${r.stderr}`);
  return r.stdout;
}

/** The costliest statements since the scenario started (pg_stat_statements), as JSON rows. */
function topStatements(url) {
  const out = psql(
    url,
    `select coalesce(json_agg(s), '[]') from (select calls, round(total_exec_time::numeric, 1) as total_ms, round(mean_exec_time::numeric, 2) as mean_ms,
       round(max_exec_time::numeric, 1) as max_ms, rows, shared_blks_hit + shared_blks_read as blocks, left(regexp_replace(query, '\\s+', ' ', 'g'), 300) as query
     from pg_stat_statements order by total_exec_time desc limit 15) s`,
  );
  const rows = JSON.parse(out || "[]");
  for (const s of rows) log(`  ${s.total_ms} ms in ${s.calls} calls (mean ${s.mean_ms}, max ${s.max_ms}): ${s.query.slice(0, 160)}`);
  return rows;
}

/** PostgreSQL may use every CPU (its backends fork from the postmaster and inherit this). */
function unpin(cluster) {
  if (!PINNING) return;
  const pid = readFileSync(path.join(cluster.dir, "data", "postmaster.pid"), "utf8").split("\n")[0];
  spawnSync("taskset", ["-a", "-p", "-c", `0-${os.cpus().length - 1}`, pid], { stdio: "ignore" });
}

async function main() {
  prerequisites();
  // The app under test is the production build: built again when the sources are newer than it.
  await ensureBuilt({ log: () => log("sources newer than the production build: building") });
  mkdirSync(work, { recursive: true });
  const started = new Date();
  const machine = {
    postgresSettings: engines.includes("pg") ? PG_SETTINGS : undefined,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
    pinning: PINNING ? `servers on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)` : "none",
  };
  // PostgreSQL as a deployment would size it for the catalog (docs/scaling.md): 100k products with
  // their search indexes are ~400 MB, past the 128 MB default, so every scan would read pages from
  // the OS cache (IO waits in 17% of the samples of scenario 8 with the default).
  const cluster = engines.includes("pg") && !pgUrl ? await startCluster({ settings: PG_SETTINGS }) : null;
  if (cluster) unpin(cluster);
  const stop = () => {
    cluster?.stop();
    process.exit(130); // servers are killed on exit (lib/proc.mjs)
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const rows = [];
  const generation = {};
  // Rows so far, in case the run is cut short.
  mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
  const partialFile = path.join(ROOT, "bench", "results", "partial.tmp");
  partial = (engineRows) => writeFileSync(partialFile, JSON.stringify({ started, rows: [...rows, ...engineRows] }));
  try {
    for (const engine of engines) {
      const prepared = await prepareEngine(engine, cluster);
      generation[engine] = { seconds: prepared.generateSeconds, ...prepared.manifest.counts };
      rows.push(...(await runEngine(engine, prepared)));
    }
  } finally {
    cluster?.stop();
  }
  machine.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  if (cluster) machine.postgres = spawnSync(path.join(findPgBin(), "postgres"), ["--version"], { encoding: "utf8" }).stdout.trim();
  let result = { started: started.toISOString(), minutes: Math.round((Date.now() - started) / 600) / 100, quick, config: cfg, machine, generation, rows };
  if (merge) result = mergeResults(JSON.parse(readFileSync(path.resolve(ROOT, merge), "utf8")), result);
  const file = path.join(
    ROOT,
    "bench",
    "results",
    `${(merge ? result.started : started.toISOString()).replace(/[:.]/g, "-")}${quick ? "-quick" : ""}${merge ? `-rerun-${only.join("-")}` : ""}.json`,
  );
  writeFileSync(file, JSON.stringify(result, null, 1));
  console.log("\n" + renderTable(result.rows) + "\n");
  log(`results: ${path.relative(ROOT, file)} (${result.minutes} min)`);
  if (write) {
    writeBenchmarksMd(result, path.relative(ROOT, file));
    log("BENCHMARKS.md updated");
  }
  process.exit(rows.some((r) => r.failed) ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
