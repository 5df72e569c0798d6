import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const config: NextConfig = {
  // Loaded by Node itself, not bundled: PGlite reads its WASM and extension files from its own
  // package directory, and the database clients must be the same instances server.ts uses.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "bcryptjs", "ws"],
  poweredByHeader: false,
  // Next would load every page and route module before the first request (~0.8 s of each ~3.4 s start
  // here), /api/* included, which server.ts serves from its own bundle. Loaded at first use instead: the
  // first request for a page after a start measured ~0.08 s slower (0.29 -> 0.35-0.39 s).
  // Turbopack keeps a build cache in .next/cache (on by default since 16.4: ~16 CPU-s of writing on a first build here);
  // `npm test` on a fresh checkout (CI) turns it off, as nothing would read it (scripts/test.mjs, BUILD_FS_CACHE=0).
  experimental: { preloadEntriesOnStart: false, ...(process.env.BUILD_FS_CACHE === "0" ? { turbopackFileSystemCacheForBuild: false } : {}) },
  reactStrictMode: true,
  // `npm test` type-checks the sources and the route types this build writes (.next/types) in a step of its own
  // after the build (scripts/test.mjs), so the build skips its own pass over the same files (~46 s of one core).
  typescript: { ignoreBuildErrors: process.env.BUILD_TYPECHECKED_APART === "1" },
  // Security headers: set by server.ts on every response (lib/security/headers.ts).
};

export default withNextIntl(config);
