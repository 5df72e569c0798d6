// CSP nonces (lib/security/headers.ts newNonce): 128 random bits each, drawn from a pool refilled
// every 256 nonces; none repeats, across refills too.
import { describe, expect, it } from "vitest";
import { newNonce } from "@/lib/security/headers";

describe("newNonce", () => {
  it("gives 16 random bytes in base64, never the same twice across many refills of its pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const n = newNonce();
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(n, "base64").length).toBe(16);
      seen.add(n);
    }
    expect(seen.size).toBe(5000);
  });
});
