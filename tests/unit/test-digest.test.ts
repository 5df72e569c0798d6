// npm test's closing digest (scripts/test-digest.mjs): a failed test that names a request answered 500 is
// shown with what the shared server logged for that request.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without types
import { digest, serverErrors } from "../../scripts/test-digest.mjs";

const ID = "01a2236b-c527-7248-99bb-b4af4d4f53bf";
const OTHER = "01a2236b-0000-7248-99bb-b4af4d4f53bf";

function files() {
  const dir = mkdtempSync(path.join(tmpdir(), "digest-"));
  const log = path.join(dir, "server.log");
  writeFileSync(
    log,
    [
      "Expo Trade ready on http://localhost:4000 (production)",
      `[${OTHER}] unhandled error Error: another request`,
      "",
      `[${ID}] unhandled error TypeError: Cannot read properties of undefined (reading 'add')`,
      "    at store (/app/lib/services/catalog/list-cache.ts:203:13)",
      "    at x (/app/node_modules/drizzle-orm/index.js:1:1)",
      "    at fill (/app/lib/services/catalog/list-cache.ts:320:5)",
      "",
      "SIGTERM: shutting down",
    ].join("\n"),
  );
  const report = path.join(dir, "report.json");
  const message = `ResponseMismatch: GET /api/products -> 500: {"detail":"Something went wrong on our side (request ${ID})"}`;
  const failed = { status: "failed", fullName: "products lists", failureMessages: [message] };
  writeFileSync(report, JSON.stringify({ testResults: [{ name: "/app/tests/integration/products.test.ts", status: "failed", assertionResults: [failed] }] }));
  return { log, report, message };
}

describe("test digest", () => {
  it("shows the server's log entry for the request a failure names, up to its blank line, without library frames", () => {
    const { log, message } = files();
    expect(serverErrors(message, log)).toEqual([
      `server log for request ${ID}:`,
      `  [${ID}] unhandled error TypeError: Cannot read properties of undefined (reading 'add')`,
      "      at store (/app/lib/services/catalog/list-cache.ts:203:13)",
      "      at fill (/app/lib/services/catalog/list-cache.ts:320:5)",
    ]);
  });

  it("adds nothing without a request id, a log, or the id in the log", () => {
    const { log } = files();
    expect(serverErrors("expected 1 to be 2", log)).toEqual([]);
    expect(serverErrors(`(request ${ID})`, undefined)).toEqual([]);
    expect(serverErrors("(request 01a2236b-ffff-7248-99bb-b4af4d4f53bf)", log)).toEqual([]);
  });

  it("puts it under the failed test in the digest of a failed step", () => {
    const { log, report } = files();
    const lines = digest([{ label: "integration tests on PGlite", ok: false, report: { kind: "vitest", file: report, serverLog: log } }], "/app") as string[];
    expect(lines[0]).toBe("integration tests on PGlite: tests/integration/products.test.ts > products lists");
    expect(lines).toContain(`      [${ID}] unhandled error TypeError: Cannot read properties of undefined (reading 'add')`);
    expect(lines.some((l) => l.includes(OTHER))).toBe(false);
  });
});
