// Configuration from the environment, validated once. Every variable is documented in .env.example.
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const bool = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    // Every request must arrive whole within this time (ms); 0 turns Node's check off.
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(300_000),
    // Serve /api/* from the custom server's routing table (production only); 0 sends it through Next.
    API_DIRECT: bool.default(true),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
    // Connections of their own for the short statements of every request (lib/db/client.ts shortDb).
    DATABASE_SHORT_POOL_MAX: z.coerce.number().int().positive().default(3),
    // Connections of their own for the searches, per plan (lib/services/catalog/search-sql.ts planned): each
    // starts with its plan's settings, so a search is one statement instead of a four-statement transaction.
    // 0: searches set them in a transaction on the main pool (a pooler that drops startup parameters).
    DATABASE_SEARCH_POOL_MAX: z.coerce.number().int().min(0).default(4),
    // Where ./drizzle (the migrations) lives; the working directory by default.
    EXPO_TRADE_ROOT: z.string().min(1).optional(),
    DATA_DIR: z.string().default("./data"),
    PGLITE_DIR: z.string().optional(),
    /** PGlite: PostgreSQL's fsync reaches the disk (a commit returns once its WAL is on disk). */
    PGLITE_FSYNC: bool.default(true),
    AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
    NEXTAUTH_URL: z.string().url().optional(),
    // Browser origins besides the site's own, comma-separated (lib/auth/same-origin.ts).
    WS_ALLOWED_ORIGINS: z.string().optional(),
    SEED_DEMO: bool.default(true),
    RATE_LIMIT_ANON_PER_HOUR: z.coerce.number().int().positive().default(100),
    RATE_LIMIT_USER_PER_HOUR: z.coerce.number().int().positive().default(1000),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
    // Brute-force brakes on sign-in (lib/services/auth/throttle.ts): failed attempts per window.
    LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
    LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: z.coerce.number().int().positive().default(50),
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(100),
    LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
    // Below 10 only for test runs, with BCRYPT_TEST_LOW_COST=1 (at 4 a hash takes ~1 ms instead of ~90: most of a test
    // run's sign-ins and registrations); a server started with it says so in its log.
    BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
    BCRYPT_TEST_LOW_COST: bool.default(false),
    // Worker threads for bcrypt; default: one per core but one (1-4). Read by lib/auth/hash-pool.ts.
    BCRYPT_THREADS: z.coerce.number().int().min(1).max(64).optional(),
    // How many proxies in front of the app append to X-Forwarded-For (0 = none, trust nothing).
    // "true"/"false" stay accepted as 1/0.
    TRUST_PROXY: z
      .enum(["true", "false"])
      .transform((v) => (v === "true" ? 1 : 0))
      .or(z.coerce.number().int().min(0).max(10))
      .default(0),
    ADMIN_USERNAME: z.string().min(3).max(32).optional(),
    ADMIN_EMAIL: z.string().email().optional(),
    ADMIN_PASSWORD: z.string().min(12, "ADMIN_PASSWORD must be at least 12 characters").optional(),
    // Uploads (contract 4): local disk by default, S3-compatible object storage by configuration.
    STORAGE: z.enum(["local", "s3"]).default("local"),
    UPLOAD_DIR: z.string().optional(),
    S3_ENDPOINT: z.string().url().optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    // An upload that sends nothing for this long (ms) is abandoned.
    UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    // Chat socket (lib/realtime/): auth deadline, flood limits, heartbeat, re-read of an actor's rights.
    WS_AUTH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    WS_RATE_LIMIT_MESSAGES: z.coerce.number().int().positive().default(20),
    WS_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(10_000),
    WS_FRAME_BURST: z.coerce.number().int().positive().default(100),
    WS_FRAMES_PER_SECOND: z.coerce.number().int().positive().default(20),
    WS_PING_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
    WS_ACTOR_MAX_AGE_MS: z.coerce.number().int().min(0).default(30_000),
    // Most chat messages stored in one transaction (lib/realtime/group.ts).
    CHAT_GROUP_MAX: z.coerce.number().int().positive().default(256),
    // Product lists and searches cached per instance, fresh within a second of a change (0 disables).
    SEARCH_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(256),
    // How long after a store's last catalog change its own lists and searches skip that cache (contract 9.3:
    // the writer's own reads are exact at once; everyone's are within a second). Longer only in tests on a
    // loaded machine, where a read that waits out the one-second window can start more than 3 s after the write.
    OWN_READS_EXACT_SECONDS: z.coerce.number().int().min(1).max(3600).default(3),
    // Most URLs in one child sitemap (sitemaps.org allows 50,000); a child holds this / 15 pages
    // (every page in every locale). Smaller only to see the split with few rows (tests).
    SITEMAP_CHILD_SIZE: z.coerce.number().int().min(15).max(50_000).default(50_000),
    // Product, booth, store and exhibition pages for anonymous visitors, kept as HTML per instance
    // and served while what they show is unchanged (lib/pages/page-cache.ts; 0 disables).
    PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
    // E-mail for notifications (lib/services/notify/): an SMTP server URL (smtp://user:pass@host:587,
    // smtps://host:465). Unset: e-mails stay in the email_outbox table as `pending` and nothing fails.
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "SMTP_URL must start with smtp:// or smtps://")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    // The From of notification e-mails.
    MAIL_FROM: z.string().min(3).default("Expo Trade <no-reply@localhost>"),
    // How often the outbox sender looks for due e-mails (ms), and how many tries before `failed`.
    OUTBOX_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
    OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
    // Diagnostics: report the SQL statements of each API request in an X-Query-Count header.
    DEBUG_QUERY_COUNT: bool.default(false),
    // Test hook (lib/server/test-sql.ts): a parent process holding an IPC channel may run SQL here.
    EXPO_TEST_SQL_IPC: bool.default(false),
  })
  .superRefine((e, ctx) => {
    if (e.BCRYPT_COST < 10 && !e.BCRYPT_TEST_LOW_COST) {
      ctx.addIssue({
        code: "custom",
        path: ["BCRYPT_COST"],
        message: "BCRYPT_COST must be at least 10 (lower only for test runs, with BCRYPT_TEST_LOW_COST=1)",
      });
    }
    if (e.STORAGE !== "s3") return;
    for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!e[name]) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when STORAGE=s3` });
    }
  });

/** PUBLIC_URL: NEXTAUTH_URL, or http://localhost:$PORT when unset (what server.ts gives NextAuth). */
export type Env = z.infer<typeof EnvSchema> & { AUTH_SECRET: string; PGLITE_DIR: string; UPLOAD_DIR: string; PUBLIC_URL: string };

const KEY = Symbol.for("expo-trade.env");
type G = typeof globalThis & { [KEY]?: Env };

/**
 * The validated environment. When AUTH_SECRET is unset (the no-setup `npm start`), a random secret
 * is generated once and kept in DATA_DIR so sessions survive a restart.
 */
export function env(): Env {
  const g = globalThis as G;
  if (g[KEY]) return g[KEY];
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(/*turbopackIgnore: true*/ e.DATA_DIR);
  const value: Env = {
    ...e,
    DATA_DIR: dataDir,
    PGLITE_DIR: path.resolve(/*turbopackIgnore: true*/ e.PGLITE_DIR ?? path.join(dataDir, "pglite")),
    UPLOAD_DIR: path.resolve(/*turbopackIgnore: true*/ e.UPLOAD_DIR ?? path.join(dataDir, "uploads")),
    AUTH_SECRET: e.AUTH_SECRET ?? persistentSecret(dataDir),
    PUBLIC_URL: e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`,
  };
  g[KEY] = value;
  return value;
}

/**
 * NextAuth reads its URL and secret from process.env itself: give it the public URL and the
 * (possibly generated) secret unless they were set. The only writes to process.env.
 */
export function exportForNextAuth(e: Env): void {
  process.env.NEXTAUTH_URL ??= e.PUBLIC_URL;
  process.env.NEXTAUTH_SECRET ??= e.AUTH_SECRET;
}

/**
 * Whether this code was built for development (Next's dev server). Not env().NODE_ENV: the
 * bundler replaces this expression per build (the proxy's dev CSP must follow the build), and
 * env() is parsed before Next's dev server sets NODE_ENV at run time.
 */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: create it below
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  // Written aside, synced and renamed into place: a crash never leaves a half-written secret
  // (which would sign everyone out), and a secret that signed sessions is on disk.
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, secret + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dirFd = openSync(dataDir, "r");
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
  return secret;
}
