#!/usr/bin/env node
// `npm run security` (issue #7, point 8; not part of `npm test`): Debian's sqlmap against every
// query, path and JSON body parameter of the API, on a local production instance backed by a
// throwaway PostgreSQL cluster (the engine sqlmap knows best; PGlite when PostgreSQL is missing).
// The targets come from /api/openapi; every request carries a valid Bearer token and real ids, so
// sqlmap compares against genuine answers. Prints endpoints × parameters and the verdict; exits 1
// when anything is injectable or the server answered 5xx, 3 when the time budget ran out first.
//   SECURITY_BUDGET_MINUTES (15)  SECURITY_PARALLEL (3)  SQLMAP_LEVEL (2)  SQLMAP_RISK (1)
//   SQLMAP_TECHNIQUE (BEU)        --no-build: use the existing .next build   --only <substring>
//   --continue <summary.json>: run only what an earlier run left undone
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { aptInstall } from "./apt.mjs";
import { ensureBuilt } from "./build.mjs";
import { findPgBin, freePort, startCluster } from "./pg-cluster.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const args = process.argv.slice(2);
const BUDGET_MS = Number(process.env.SECURITY_BUDGET_MINUTES ?? 15) * 60_000;
const PARALLEL = Number(process.env.SECURITY_PARALLEL ?? 3);
const LEVEL = process.env.SQLMAP_LEVEL ?? "2";
const RISK = process.env.SQLMAP_RISK ?? "1";
// Boolean-blind, error-based and UNION: time-based (T) and stacked (S) tests need a statistical
// model of response times per parameter, which alone would take the run past an hour here.
const TECHNIQUE = process.env.SQLMAP_TECHNIQUE ?? "BEU";
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
// --continue <summary.json>: skip the targets an earlier run completed (all parameters tested).
const DONE = args.includes("--continue")
  ? new Set(
      JSON.parse(readFileSync(args[args.indexOf("--continue") + 1], "utf8"))
        .results.filter((r) => !r.skipped && r.tested.length >= r.names.length)
        .map((r) => r.id),
    )
  : new Set();
const started = Date.now();
const children = new Set();

// --- prerequisites -------------------------------------------------------------------------
function sqlmapBin() {
  for (const p of ["/usr/bin/sqlmap", "/usr/local/bin/sqlmap"]) if (existsSync(p)) return p;
  const which = spawnSync("sh", ["-c", "command -v sqlmap"], { encoding: "utf8" });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}

let SQLMAP = sqlmapBin();
if (!SQLMAP && aptInstall(["sqlmap"])) SQLMAP = sqlmapBin();
if (!SQLMAP) {
  console.error("\nnpm run security needs sqlmap: install it with `apt-get install sqlmap` (Debian/Ubuntu) or put it on PATH.\n");
  process.exit(2);
}
let usePostgres = Boolean(findPgBin()) || (aptInstall(["postgresql"]) && Boolean(findPgBin()));
if (!usePostgres) console.warn("PostgreSQL is not installed (apt-get install postgresql): testing on PGlite instead.");

if (!args.includes("--no-build")) await ensureBuilt({ log: () => console.log("=== production build ===") });

// --- a local instance -----------------------------------------------------------------------
async function startApp(databaseUrl) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "expo-trade-security-"));
  let log = "";
  const child = spawn(process.execPath, ["scripts/serve.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? "",
      NEXTAUTH_URL: `http://localhost:${port}`,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      SEED_DEMO: "1",
      ADMIN_USERNAME: "sec_admin",
      ADMIN_PASSWORD: "sec-admin-password",
      // sqlmap sends tens of thousands of requests, many of them failed sign-ins.
      RATE_LIMIT_ANON_PER_HOUR: "100000000",
      RATE_LIMIT_USER_PER_HOUR: "100000000",
      LOGIN_MAX_FAILURES_PER_ACCOUNT: "100000000",
      LOGIN_MAX_FAILURES_PER_IP: "100000000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    if (i > 900) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, log: () => log };
}

// --- fixtures: real ids so sqlmap's baseline answers are genuine ----------------------------
async function call(base, p, { token, json, method } = {}) {
  const res = await fetch(`${base}${p}`, {
    method: method ?? (json ? "POST" : "GET"),
    headers: { ...(json ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (!res.ok) throw new Error(`${method ?? "POST"} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return body;
}

async function fixtures(base) {
  const tag = Date.now().toString(36);
  const password = "security-pass-1";
  const mk = async (role, name) => {
    await call(base, "/api/accounts/create", { json: { email: `${name}@example.test`, username: name, password, role, companyName: `Co ${name}` } });
    const { token, user } = await call(base, "/api/auth/login", { json: { email: name, password } });
    return { token, id: user.id, username: name, password };
  };
  const seller = await mk("SELLER", `sqs${tag}`);
  const buyer = await mk("BUYER", `sqb${tag}`);
  const admin = (await call(base, "/api/auth/login", { json: { email: "sec_admin", password: "sec-admin-password" } })).token;
  const { categories } = await call(base, "/api/categories");
  const category = categories.find((c) => c.parentId).id;
  const exhibition = (
    await call(base, "/api/exhibitions", {
      token: admin,
      json: { name: `Fair ${tag}`, startsAt: new Date(Date.now() - 3600_000).toISOString(), endsAt: new Date(Date.now() + 86400_000).toISOString() },
    })
  ).exhibition;
  const booth = (await call(base, "/api/booths", { token: seller.token, json: { name: `Booth ${tag}`, exhibitionName: exhibition.name } })).booth;
  const product = (
    await call(base, "/api/products", {
      token: seller.token,
      json: { title: `Lamp ${tag}`, price: 10, currency: "USD", category, moq: 1, boothId: booth.id, keywords: ["lamp"] },
    })
  ).product;
  const message = await call(base, "/api/chat/messages", { token: buyer.token, json: { to: seller.id, content: "hello", productId: product.id } });
  const inquiry = (await call(base, "/api/buyer/inquiries", { token: buyer.token, json: { productId: product.id, message: "price?" } })).inquiry;
  const order = (await call(base, "/api/orders", { token: buyer.token, json: { productId: product.id, quantity: 2 } })).order;
  const task = (await call(base, "/api/marketplace/tasks", { token: buyer.token, json: { title: "translate", description: "a catalog" } })).task;
  const requirement = (await call(base, "/api/buyer/requirements", { token: buyer.token, json: { title: "LED", description: "1000 bulbs" } })).requirement;
  const ai = (await call(base, "/api/ai/accounts", { token: seller.token, json: { role: "AI_BUYER", password: "ai-password-1" } })).account;
  const key = await call(base, "/api/keys", { token: seller.token, json: { name: "sqlmap" } });
  // Spares for the DELETE targets, so deleting them leaves the ids the other targets use.
  const spareKey = await call(base, "/api/keys", { token: seller.token, json: { name: "spare" } });
  const spareProduct = (
    await call(base, "/api/products", { token: seller.token, json: { title: `Spare ${tag}`, price: 1, currency: "USD", category, moq: 1 } })
  ).product;
  const ids = {
    productId: product.id,
    boothId: booth.id,
    conversationId: message.conversationId ?? message.message?.conversationId,
    sellerId: seller.id,
    storeId: seller.id,
    aiUserId: ai.aiUserId,
    category,
    exhibitionId: exhibition.id,
    to: seller.id,
  };
  const byPath = [
    [/^DELETE \/api\/products\/\{id\}/, spareProduct.id],
    [/^DELETE \/api\/keys\/\{id\}/, spareKey.key.id],
    [/^\/api\/products\/\{id\}/, product.id],
    [/^\/api\/booths\/\{id\}/, booth.id],
    [/^\/api\/exhibitions\/\{id\}/, exhibition.id],
    [/^\/api\/(stores|sellers)\/\{id\}/, seller.id],
    [/^\/api\/buyer\/inquiries\/\{id\}|^\/api\/seller\/inquiries\/\{id\}/, inquiry.id],
    [/^\/api\/orders\/\{id\}/, order.id],
    [/^\/api\/marketplace\/tasks\/\{id\}/, task.id],
    [/^\/api\/buyer\/requirements\/\{id\}/, requirement.id],
    [/^\/api\/keys\/\{id\}/, key.key.id],
    [/^\/api\/chat\//, ids.conversationId],
  ];
  return { seller, buyer, admin, ids, byPath, apiKey: key.secret };
}

// --- targets from the OpenAPI document ------------------------------------------------------
// Not sent: they end the session sqlmap is using, or are NextAuth's own form endpoints (CSRF-bound;
// their credentials go through the same sign-in service as /api/auth/login, which is tested).
const SKIP = [
  /^POST \/api\/auth\/logout$/,
  /^POST \/api\/user\/password$/,
  /^POST \/api\/upload$/,
  /^(GET|POST) \/api\/auth\/(callback|signout|csrf|session|providers)/,
];

function resolveRef(doc, schema) {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 10; i++)
    s = s.$ref
      .split("/")
      .slice(1)
      .reduce((o, k) => o?.[k], doc);
  return s ?? {};
}

const NAMED = {
  email: (f) => f.seller.username,
  password: (f) => f.seller.password,
  currency: () => "USD",
  restrictTo: () => "NON_ADMIN",
  role: () => "BUYER",
  q: () => "lamp",
  keyword: () => "lamp",
  sort: () => "relevance",
  as: () => "buyer",
  format: () => "json",
  slug: () => "spring-fair",
  locale: () => "en",
  country: () => "DE",
  website: () => "https://example.com",
};

function sample(doc, schema, name, f, depth = 0) {
  const s = resolveRef(doc, schema);
  if (name && f.ids[name] !== undefined) return f.ids[name];
  if (name && NAMED[name]) return NAMED[name](f);
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.allOf) return Object.assign({}, ...s.allOf.map((x) => sample(doc, x, name, f, depth + 1)));
  if (s.anyOf || s.oneOf) return sample(doc, (s.anyOf ?? s.oneOf).find((x) => resolveRef(doc, x).type !== "null") ?? {}, name, f, depth + 1);
  switch (s.type) {
    case "object": {
      if (depth > 3) return {};
      const out = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(doc, v, k, f, depth + 1);
      return out;
    }
    case "array":
      return depth > 3 ? [] : [sample(doc, s.items ?? { type: "string" }, name, f, depth + 1)];
    case "integer":
    case "number":
      return Math.max(1, s.minimum ?? 1);
    case "boolean":
      return true;
    default:
      if (s.format === "date-time") return new Date(Date.now() + 86400_000).toISOString();
      if (s.format === "email") return `sqlmap${Date.now()}@example.test`;
      if (s.format === "uri") return "https://example.com/x";
      return "test";
  }
}

function targets(doc, f) {
  const out = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const M = method.toUpperCase();
      if (!["GET", "POST", "PUT", "PATCH", "DELETE"].includes(M)) continue;
      if (SKIP.some((r) => r.test(`${M} ${p}`))) continue;
      if ((ONLY && !`${M} ${p}`.includes(ONLY)) || DONE.has(`${M} ${p}`)) continue;
      const params = (op.parameters ?? []).map((x) => resolveRef(doc, x));
      const pathParams = params.filter((x) => x.in === "path");
      const query = params.filter((x) => x.in === "query");
      const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
      if (op.requestBody && !bodySchema) continue; // form and multipart bodies
      // Every value is marked with sqlmap's custom injection marker `*`.
      let url = p.replace(
        /\{(\w+)\}/g,
        (_, k) =>
          `${encodeURIComponent(String(f.ids[k] ?? f.byPath.find(([r]) => r.test(`${M} ${p}`) || r.test(p))?.[1] ?? "0193c4d2-7b1e-7c3a-9f4e-2a6b8c0d1e3f"))}*`,
      );
      const qs = query.map((q) => `${q.name}=${encodeURIComponent(String(sample(doc, q.schema ?? {}, q.name, f)))}*`).join("&");
      if (qs) url += `?${qs}`;
      let body;
      const names = [...pathParams.map((x) => `path:${x.name}`), ...query.map((x) => `query:${x.name}`)];
      if (bodySchema) {
        const value = sample(doc, bodySchema, null, f);
        const marked = markJson(value, "", names);
        body = JSON.stringify(marked).replace(/"__MARK__(.*?)__END__"/g, (_, v) => JSON.stringify(`${JSON.parse(`"${v}"`)}*`));
      }
      if (!names.length) continue;
      if (p === "/mcp") continue; // JSON-RPC envelope: the tool call below is the interesting body
      out.push({ id: `${M} ${p}`, method: M, url, body, names, auth: op.security?.length ? "bearer" : "none" });
    }
  }
  // The tool server: arguments of a tool call reach the same services through another door.
  if ((!ONLY || "POST /mcp tools/call".includes(ONLY)) && !DONE.has("POST /mcp tools/call search_products")) {
    const args = { keyword: "lamp", category: f.ids.category, minPrice: 1, maxPrice: 100 };
    const names = Object.keys(args).map((k) => `body:params.arguments.${k}`);
    const marked = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, `${v}*`]));
    out.push({
      id: "POST /mcp tools/call search_products",
      method: "POST",
      url: "/mcp",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_products", arguments: marked } }),
      names,
      auth: "key",
    });
  }
  return out;
}

/** Mark every leaf (strings in place; numbers and booleans become marked strings) and collect names. */
function markJson(value, prefix, names) {
  if (Array.isArray(value)) return value.map((v, i) => markJson(v, `${prefix}[${i}]`, names));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markJson(v, prefix ? `${prefix}.${k}` : k, names)]));
  names.push(`body:${prefix}`);
  return `__MARK__${String(value).replace(/["\\]/g, (c) => `\\${c}`)}__END__`;
}

// --- sqlmap ----------------------------------------------------------------------------------
function runSqlmap(base, t, token, outDir) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const headers = [
      t.auth === "key" ? "Accept: application/json, text/event-stream" : "Accept: application/json",
      ...(t.body ? ["Content-Type: application/json"] : []),
      ...(token ? [`Authorization: Bearer ${token}`] : []),
    ];
    const argv = [
      "-u",
      `${base}${t.url}`,
      "--method",
      t.method,
      ...(t.body ? ["--data", t.body] : []),
      "--headers",
      headers.join("\n"),
      "--batch",
      "--flush-session",
      "--disable-coloring",
      "--level",
      LEVEL,
      "--risk",
      RISK,
      "--technique",
      TECHNIQUE,
      "--dbms",
      "PostgreSQL",
      "--time-sec",
      "2",
      "--threads",
      "2",
      "--ignore-code",
      "400,401,403,404,405,409,413,415,422,429",
      "--output-dir",
      outDir,
      "--answers",
      "custom injection marker=Y,process it=Y,skip further tests=N,other DBMSes=N",
    ];
    const child = spawn(SQLMAP, argv, { stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", () => {
      children.delete(child);
      resolve(parse(t, out, Date.now() - t0));
    });
  });
}

function parse(t, out, ms) {
  // One "is dynamic" check per injection point sqlmap works on. Names are not unique: with a JSON
  // body sqlmap labels the URL's markers "JSON #n*" as well, so count the checks themselves.
  const tested = [...out.matchAll(/testing if (?:\(custom\) )?[\w ()]*?parameter '([^']+)' is dynamic/g)].map((m) => m[1]);
  // sqlmap's own verdict: a candidate ("appears to be ... injectable") that fails its false-positive
  // check is dropped; only a confirmed one is listed under "identified the following injection point(s)".
  const injectable = /sqlmap identified the following injection point/i.test(out);
  const codes = /HTTP error codes detected during run:\s*\n([^\n]*)/.exec(out)?.[1] ?? "";
  const errors = [...codes.matchAll(/(5\d\d) \([^)]*\) - (\d+) times/g)].map((m) => `${m[1]}×${m[2]}`);
  const requests = Number(/(\d+) HTTP\(s\) requests/.exec(out)?.[1] ?? NaN);
  const failed = /\[CRITICAL\] (?!all tested parameters do not appear to be injectable)(.*)/.exec(out)?.[1];
  return {
    ...t,
    tested,
    injectable,
    errors,
    requests,
    seconds: Math.round(ms / 1000),
    note: injectable ? "INJECTABLE" : failed ? failed.slice(0, 80) : "",
    out,
  };
}

async function main() {
  const cluster = usePostgres ? await startCluster() : null;
  let app;
  const cleanup = () => {
    for (const c of children) c.kill("SIGTERM");
    cluster?.stop();
  };
  process.on("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  try {
    app = await startApp(cluster?.url("postgres"));
    console.log(`instance on ${app.url} (${usePostgres ? "PostgreSQL" : "PGlite"})`);
    const f = await fixtures(app.url);
    const doc = await call(app.url, "/api/openapi");
    const list = targets(doc, f);
    const paramCount = list.reduce((n, t) => n + t.names.length, 0);
    console.log(
      `${list.length} endpoints, ${paramCount} parameters; sqlmap --level ${LEVEL} --risk ${RISK} --technique ${TECHNIQUE}, ${PARALLEL} at a time, budget ${BUDGET_MS / 60000} min`,
    );
    const outRoot = mkdtempSync(path.join(tmpdir(), "expo-trade-sqlmap-"));
    const results = [];
    const queue = list.map((t, i) => ({ ...t, n: i }));
    const worker = async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        if (Date.now() - started > BUDGET_MS) {
          results.push({ ...t, tested: [], injectable: false, errors: [], seconds: 0, note: "NOT RUN (time budget)", skipped: true });
          continue;
        }
        const token = t.auth === "key" ? f.apiKey : t.auth === "bearer" || t.id.includes("/auth/me") ? f.seller.token : null;
        // One directory per target: sqlmap keeps its session (what it already tested) there.
        const dir = path.join(outRoot, String(t.n));
        mkdirSync(dir, { recursive: true });
        const r = await runSqlmap(app.url, t, token, dir);
        results.push(r);
        console.log(
          `${r.injectable ? "INJECTABLE" : r.errors.length ? "5xx" : "ok"}  ${t.id}  (${r.tested.length}/${t.names.length} params, ${r.seconds} s)${r.errors.length ? " " + r.errors.join(",") : ""}`,
        );
        writeFileSync(path.join(dir, "sqlmap.out"), r.out);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    results.sort((a, b) => a.id.localeCompare(b.id));

    console.log("\n| endpoint | parameters (sqlmap tested / sent) | verdict | 5xx | s |\n|---|---|---|---|---|");
    for (const r of results)
      console.log(
        `| ${r.id} | ${r.tested.length}/${r.names.length}: ${r.names.join(", ")} | ${r.skipped ? "not run" : r.injectable ? "**injectable**" : "not injectable"} | ${r.errors.join(",") || "0"} | ${r.seconds} |`,
      );
    const bad = results.filter((r) => r.injectable);
    const errs = results.filter((r) => r.errors.length);
    const skipped = results.filter((r) => r.skipped);
    const summary = {
      date: new Date().toISOString(),
      engine: usePostgres ? "PostgreSQL" : "PGlite",
      sqlmap: spawnSync(SQLMAP, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0],
      options: { level: LEVEL, risk: RISK, technique: TECHNIQUE },
      endpoints: results.length,
      parameters: results.reduce((n, r) => n + r.names.length, 0),
      parametersTested: results.reduce((n, r) => n + r.tested.length, 0),
      injectable: bad.map((r) => r.id),
      serverErrors: errs.map((r) => `${r.id} ${r.errors.join(",")}`),
      notRun: skipped.map((r) => r.id),
      minutes: Math.round((Date.now() - started) / 6000) / 10,
      sqlmapOutput: outRoot,
    };
    const reportFile = path.join(outRoot, "summary.json");
    writeFileSync(reportFile, JSON.stringify({ summary, results: results.map(({ out: _o, ...r }) => r) }, null, 2));
    console.log(`\n${JSON.stringify(summary, null, 2)}\nreport: ${reportFile}`);
    const serverLog = app.log();
    const logged500 = (serverLog.match(/unhandled error/g) ?? []).length;
    if (logged500) console.log(`server logged ${logged500} unhandled errors; last lines:\n${serverLog.slice(-3000)}`);
    process.exitCode = bad.length || errs.length || logged500 ? 1 : skipped.length ? 3 : 0;
  } finally {
    cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  for (const c of children) c.kill("SIGTERM");
  process.exit(1);
});
