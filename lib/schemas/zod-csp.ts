// In the browser, zod's JIT probes `new Function` once; under the pages' strict CSP (no
// 'unsafe-eval') that probe is blocked and reported as a CSP violation, though zod falls back.
// Imported first by the schema modules pages use, before any schema is built.
import { z } from "zod";

if (typeof window !== "undefined") z.config({ jitless: true });
