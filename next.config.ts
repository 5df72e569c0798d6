import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const config: NextConfig = {
  // Loaded by Node itself, not bundled: PGlite reads its WASM and extension files from its own
  // package directory, and the database clients must be the same instances server.ts uses.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "bcryptjs", "ws"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Security headers: set by server.ts on every response (lib/security/headers.ts).
};

export default withNextIntl(config);
