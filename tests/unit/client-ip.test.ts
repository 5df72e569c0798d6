// The client address behind TRUST_PROXY hops: only what the trusted proxies appended counts.
import { afterEach, describe, expect, it } from "vitest";
import { clientIp, REMOTE_ADDR_HEADER } from "@/lib/auth/cookies";

const ENV_KEY = Symbol.for("expo-trade.env");
function withTrustProxy(value: string | undefined) {
  delete (globalThis as Record<symbol, unknown>)[ENV_KEY];
  if (value === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = value;
}

describe("clientIp", () => {
  afterEach(() => withTrustProxy(undefined));
  const headers = (xff?: string) => new Headers({ [REMOTE_ADDR_HEADER]: "10.0.0.5", ...(xff ? { "x-forwarded-for": xff } : {}) });

  it("uses the socket's peer and ignores X-Forwarded-For without a trusted proxy", () => {
    withTrustProxy(undefined);
    expect(clientIp(headers("203.0.113.9"))).toBe("10.0.0.5");
    withTrustProxy("false");
    expect(clientIp(headers("203.0.113.9"))).toBe("10.0.0.5");
  });

  it("takes the entry the proxy appended, not one the client sent", () => {
    for (const v of ["1", "true"]) {
      withTrustProxy(v);
      expect(clientIp(headers("198.51.100.7"))).toBe("198.51.100.7");
      // nginx's $proxy_add_x_forwarded_for keeps the client's own header and appends the peer.
      expect(clientIp(headers("1.2.3.4, 198.51.100.7"))).toBe("198.51.100.7");
      expect(clientIp(headers(" 1.2.3.4 ,, 198.51.100.7 "))).toBe("198.51.100.7");
      expect(clientIp(headers())).toBe("10.0.0.5");
    }
  });

  it("counts hops from the right with two proxies, and stops at the leftmost entry", () => {
    withTrustProxy("2");
    expect(clientIp(headers("1.2.3.4, 198.51.100.7, 192.0.2.1"))).toBe("198.51.100.7");
    expect(clientIp(headers("198.51.100.7"))).toBe("198.51.100.7");
  });

  it("rejects a setting that is neither a hop count nor a boolean", () => {
    withTrustProxy("yes");
    expect(() => clientIp(headers("1.2.3.4"))).toThrow(/TRUST_PROXY/);
  });
});
