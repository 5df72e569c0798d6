import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { signAccessToken, verifyAccessToken } from "@/lib/auth/tokens";

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
const key = new TextEncoder().encode(process.env.AUTH_SECRET);

describe("Bearer tokens", () => {
  it("round-trips the claims", async () => {
    const token = await signAccessToken({ sub: "u1", sid: "s1", role: "BUYER", isAI: false }, new Date(Date.now() + 60_000));
    expect(await verifyAccessToken(token)).toEqual({ sub: "u1", sid: "s1", role: "BUYER", isAI: false });
  });

  it("refuses alg none, a wrong key, expiry, and missing sub or sid", async () => {
    const good = await signAccessToken({ sub: "u1", sid: "s1", role: "BUYER", isAI: false }, new Date(Date.now() + 60_000));
    const [, payload] = good.split(".");
    const cases = [
      `${b64({ alg: "none", typ: "JWT" })}.${payload}.`,
      await new SignJWT({ sid: "s1" })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("u1")
        .setIssuer("expo-trade")
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode("another-secret-another-secret-another")),
      await new SignJWT({ sid: "s1" })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("u1")
        .setIssuer("expo-trade")
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(key),
      await new SignJWT({ sid: "s1" }).setProtectedHeader({ alg: "HS256" }).setIssuer("expo-trade").setExpirationTime("1h").sign(key),
      await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject("u1").setIssuer("expo-trade").setExpirationTime("1h").sign(key),
      await new SignJWT({ sid: "s1" }).setProtectedHeader({ alg: "HS512" }).setSubject("u1").setIssuer("expo-trade").setExpirationTime("1h").sign(key),
      "not.a.token",
      "",
    ];
    for (const t of cases) expect(await verifyAccessToken(t), t).toBeNull();
  });
});
