import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": path.dirname(fileURLToPath(import.meta.url)) };
const env = {
  AUTH_SECRET: "test-secret-0123456789-0123456789-abcdef",
  BCRYPT_COST: "10",
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
