import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
// tests/e2e/password-reset.spec.ts listens here (smtp-server) and reads the mails the app sends.
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? port + 1);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "expo-trade-e2e-"));

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "node scripts/serve.mjs",
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NEXTAUTH_URL: `http://localhost:${port}`,
      SEED_DEMO: "1",
      DATABASE_URL: "",
      // Commits not synced to disk (as the integration tests' servers: tests/support/server.ts).
      PGLITE_FSYNC: "0",
      RATE_LIMIT_ANON_PER_HOUR: "100000",
      RATE_LIMIT_USER_PER_HOUR: "100000",
      LOGIN_MAX_FAILURES_PER_ACCOUNT: "100000",
      LOGIN_MAX_FAILURES_PER_IP: "100000",
      // bcrypt at a test run's low cost, as the integration tests' servers (tests/support/server.ts).
      BCRYPT_COST: "4",
      BCRYPT_TEST_LOW_COST: "1",
      ADMIN_USERNAME: "e2e_admin",
      ADMIN_PASSWORD: "e2e-admin-password",
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      OUTBOX_INTERVAL_MS: "200",
    },
  },
});
