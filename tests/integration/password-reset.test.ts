// Forgotten passwords and e-mail verification (#17) through a real SMTP server (smtp-server, started
// here): the link arrives in the owner's language, works once, expires, refuses a tampered token,
// ends every session; an unknown address gets the same answer and no mail; and a disabled agent with
// the right password is told its account is disabled, alike on the three sign-in routes.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createUser, login, unique, useServer } from "../support/api";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { chatSocket, sleep } from "../support/ws";

type Mail = { to: string[]; subject: string; text: string };

/** Headers unfolded, encoded words and the body's transfer encoding undone (what nodemailer writes). */
function parseMail(to: string[], raw: string): Mail {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, " ");
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "mi").exec(headers)?.[1] ?? "";
  const words = (s: string) =>
    s
      .replace(/\?=\s+=\?/g, "?==?")
      .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
        enc.toLowerCase() === "b" ? Buffer.from(data, "base64").toString("utf8") : qp(data.replace(/_/g, " ")),
      );
  const body = rest.join("\n\n");
  const cte = header("Content-Transfer-Encoding").toLowerCase();
  const text = cte === "base64" ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") : cte === "quoted-printable" ? qp(body) : body;
  return { to, subject: words(header("Subject")), text };
}

function qp(s: string): string {
  const bytes = s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => `%${h}`);
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, "%25"));
}

const tokenIn = (mail: Mail, page: string) => new RegExp(`${page}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text)?.[1];

/** Waits (up to 10 s) until `check` returns a value; the deadline only bounds a failure. */
async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await sleep(100);
  }
}

/** The credentials callback as an API client (JSON body): problem+json like the other two routes. */
async function callbackSignIn(identifier: string, password: string) {
  const csrfRes = await fetch(`${baseUrl()}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const cookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", cookie },
    body: JSON.stringify({ csrfToken, email: identifier, password }),
    redirect: "manual",
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as { code?: string } | null };
}

describe("password reset and e-mail verification (a real SMTP server)", () => {
  let server: OwnServer;
  let smtp: SMTPServer;
  const received: Mail[] = [];
  const mailTo = (email: string, page: string, after = 0) =>
    eventually(() => received.slice(after).find((m) => m.to.includes(email) && tokenIn(m, page)), `a ${page} mail to ${email}`);

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, done) {
        let data = "";
        stream.on("data", (c: Buffer) => (data += c.toString()));
        stream.on("end", () => {
          received.push(
            parseMail(
              session.envelope.rcptTo.map((r) => r.address),
              data,
            ),
          );
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    server = await startOwnServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, OUTBOX_INTERVAL_MS: "100", MAIL_FROM: "Expo Trade Test <auth@example.test>" });
    useServer(server.url);
  }, 300_000);
  afterAll(async () => {
    useServer(undefined);
    await server?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  const requestReset = (email: string) => api<{ ok: boolean; message: string }>("/api/auth/password-reset", { json: { email } });
  const confirm = (token: string, password: string) =>
    api<{ ok?: boolean; revokedSessions?: number; code?: string }>("/api/auth/password-reset/confirm", { json: { token, password } });

  it("e-mails a link in the owner's language that sets the password once and ends every session", async () => {
    const user = await createUser("BUYER", { locale: "de" });
    const token = await login(user.username, user.password);
    const socket = await chatSocket(token);
    const before = received.length;
    const res = await requestReset(user.email.toUpperCase());
    expect(res.status).toBe(202);
    const mail = await mailTo(user.email, "/reset-password", before);
    expect(mail.subject).toBe("Setzen Sie Ihr Expo-Trade-Passwort zurück");
    // The site's configured origin (PUBLIC_URL), the owner's locale prefix.
    expect(mail.text).toMatch(new RegExp(`https?://[^/\\s]+:${new URL(server.url).port}/de/reset-password\\?token=`));
    const link = decodeURIComponent(tokenIn(mail, "/reset-password")!);
    // Only a hash is stored: the token itself is nowhere in the database.
    const stored = await server.withDb((q) => q<{ token_hash: string }>(`select token_hash from account_tokens where purpose = 'password_reset'`));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.map((r) => r.token_hash)).not.toContain(link);

    const done = await confirm(link, "brand-new-password-1");
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true, revokedSessions: 1 });
    expect((await socket.closed).code).toBe(4401);
    expect((await api("/api/auth/me", { token })).status).toBe(401);
    expect((await api("/api/auth/login", { json: { email: user.username, password: user.password } })).status).toBe(401);
    expect((await api("/api/auth/login", { json: { email: user.email, password: "brand-new-password-1" } })).status).toBe(200);

    const again = await confirm(link, "another-password-2");
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("token_used");
    expect((await api("/api/auth/login", { json: { email: user.email, password: "another-password-2" } })).status).toBe(401);
  });

  it("refuses an expired, a tampered and a made-up link with stable codes, and a newer link replaces an older one", async () => {
    const user = await createUser();
    let before = received.length;
    await requestReset(user.email);
    const first = decodeURIComponent(tokenIn(await mailTo(user.email, "/reset-password", before), "/reset-password")!);
    const last = first.slice(-1) === "A" ? "B" : "A";
    const tampered = await confirm(first.slice(0, -1) + last, "brand-new-password-1");
    expect([tampered.status, tampered.body.code]).toEqual([400, "token_invalid"]);
    expect((await confirm("made-up-token", "brand-new-password-1")).body.code).toBe("token_invalid");

    await server.withDb((q) =>
      q(`update account_tokens set expires_at = now() - interval '1 second' where user_id = $1 and purpose = 'password_reset' and used_at is null`, [user.id]),
    );
    const expired = await confirm(first, "brand-new-password-1");
    expect([expired.status, expired.body.code]).toEqual([400, "token_expired"]);

    before = received.length;
    await requestReset(user.email);
    const second = decodeURIComponent(tokenIn(await mailTo(user.email, "/reset-password", before), "/reset-password")!);
    before = received.length;
    await requestReset(user.email);
    const third = decodeURIComponent(tokenIn(await mailTo(user.email, "/reset-password", before), "/reset-password")!);
    expect((await confirm(second, "brand-new-password-1")).body.code).toBe("token_used");
    expect((await confirm(third, "brand-new-password-1")).status).toBe(200);
    // A reset link is not a verification link, nor the reverse.
    expect((await api<{ code: string }>("/api/auth/verify-email", { json: { token: third } })).body.code).toBe("token_invalid");
  });

  it("answers an unknown address exactly like a known one, sends it nothing, and brakes both alike", async () => {
    const user = await createUser();
    const unknown = `${unique("nobody_")}@example.test`;
    const known = await requestReset(user.email);
    const stranger = await requestReset(unknown);
    expect(stranger.status).toBe(known.status);
    expect(stranger.text).toBe(known.text);
    expect(stranger.headers.get("content-type")).toBe(known.headers.get("content-type"));
    const rows = await server.withDb((q) => q(`select 1 from email_outbox where lower("to") = $1`, [unknown]));
    expect(rows).toEqual([]);

    // Five a window per address (the one above included), known or not; then 429 with Retry-After.
    for (let i = 0; i < 4; i++) {
      expect((await requestReset(user.email)).status).toBe(202);
      expect((await requestReset(unknown)).status).toBe(202);
    }
    for (const email of [user.email, unknown]) {
      const limited = await api<{ code: string }>("/api/auth/password-reset", { json: { email } });
      expect([limited.status, limited.body.code]).toEqual([429, "rate_limited"]);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  it("verifies the address from the registration mail, shown in /api/auth/me, once; resend sends a new link", async () => {
    const before = received.length;
    const user = await createUser("SELLER", { companyName: "Verified Co" });
    const token = await login(user.username, user.password);
    const me = async () => (await api<{ user: { emailVerified: boolean } }>("/api/auth/me", { token })).body.user.emailVerified;
    expect(await me()).toBe(false);
    const firstMail = await mailTo(user.email, "/verify-email", before);
    expect(firstMail.subject).toBe("Confirm your e-mail address for Expo Trade");
    const first = decodeURIComponent(tokenIn(firstMail, "/verify-email")!);

    const mark = received.length;
    const resend = await api<{ sent: boolean }>("/api/auth/verify-email/resend", { method: "POST", token });
    expect([resend.status, resend.body.sent]).toEqual([202, true]);
    const second = decodeURIComponent(tokenIn(await mailTo(user.email, "/verify-email", mark), "/verify-email")!);
    expect((await api<{ code: string }>("/api/auth/verify-email", { json: { token: first } })).body.code).toBe("token_used");

    const ok = await api<{ ok: boolean; email: string }>("/api/auth/verify-email", { json: { token: second } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, email: user.email });
    expect(await me()).toBe(true);
    expect((await api<{ code: string }>("/api/auth/verify-email", { json: { token: second } })).body.code).toBe("token_used");
    expect((await api<{ sent: boolean }>("/api/auth/verify-email/resend", { method: "POST", token })).body.sent).toBe(false);
  });

  it("tells a disabled agent with the right password that its account is disabled, alike on the three sign-in routes", async () => {
    const g = await createGuardianWithAi();
    const ai = g.aiBuyer.username;
    await api(`/api/ai/accounts?aiUserId=${g.aiBuyer.aiUserId}`, { method: "DELETE", token: g.guardianToken });
    const routes = [
      async (password: string) => {
        const r = await api<{ code: string }>("/api/auth/login", { json: { email: ai, password } });
        return [r.status, r.body.code];
      },
      async (password: string) => {
        const r = await api<{ code: string }>("/api/auth/delegate-login", { json: { email: ai, password, restrictTo: "NON_ADMIN" } });
        return [r.status, r.body.code];
      },
      async (password: string) => {
        const r = await callbackSignIn(ai, password);
        return [r.status, r.body?.code];
      },
    ];
    for (const signIn of routes) {
      expect(await signIn(g.aiPassword)).toEqual([403, "account_disabled"]);
      // A wrong password says nothing about the account's state.
      expect(await signIn("not-the-password")).toEqual([401, "unauthenticated"]);
    }
    // No e-mail reset for an agent: its username is no address, and the shared address is its guardian's.
    const before = received.length;
    expect((await requestReset(g.guardian.email)).status).toBe(202);
    await mailTo(g.guardian.email, "/reset-password", before);
    const owners = await server.withDb((q) => q<{ user_id: string }>(`select distinct user_id from account_tokens where email = $1`, [g.guardian.email]));
    expect(owners.map((o) => o.user_id)).toEqual([g.guardian.id]);
  });
});
