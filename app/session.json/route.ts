import { serveSessionProbe } from "@/lib/services/session/probe";

export const dynamic = "force-dynamic";

// GET /session.json - the header's session probe (lib/services/session/probe.ts; served by server.ts
// directly in production, outside the API tier)
export const GET = serveSessionProbe;
export const HEAD = serveSessionProbe;
