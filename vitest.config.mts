import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": path.dirname(fileURLToPath(import.meta.url)) };
/**
 * Integration files whose every assertion is decided before the database is asked (HTTP edges, the published
 * description, the hash pool, CPU ratios of request parsing) run on PostgreSQL only: on both engines they ran
 * the same code twice. hostile-cpu is the stricter there (on PGlite the ordinary request's queries run in the
 * server's own process and count on its side of the ratio). Everything else runs on both engines
 * (docs/decisions.md, "Files that run on one engine").
 */
const POSTGRES_ONLY = ["direct-dispatch", "hashing", "hostile-cpu", "http-edges", "openapi-requests", "page-urls"].map(
  (name) => `tests/integration/${name}.test.ts`,
);
const onPglite = !process.env.DATABASE_URL;

const env = {
  AUTH_SECRET: "test-secret-0123456789-0123456789-abcdef",
  // Passwords hashed by services in the test process itself at a test run's low cost (tests/support/server.ts says why).
  BCRYPT_COST: "4",
  BCRYPT_TEST_LOW_COST: "1",
  NODE_ENV: "test" as const,
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", env },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: onPglite ? POSTGRES_ONLY : [],
          environment: "node",
          env,
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One server per run; test files run in parallel against it.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          // nginx in front of two instances on one PostgreSQL (`npm run test:scale`, docs/scaling.md).
          name: "scale",
          include: ["tests/scale/**/*.test.ts"],
          environment: "node",
          env,
          globalSetup: ["tests/scale/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
