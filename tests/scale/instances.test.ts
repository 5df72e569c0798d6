// Several instances behind nginx (docs/scaling.md): nginx with docs/nginx.conf in front of two app
// instances on one PostgreSQL. Requests alternate between the instances (round robin, no sticky
// sessions), and the test shows that nothing an instance needs lives in another one's memory.
import { createHash } from "node:crypto";
import { request } from "node:http";
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, createUser, login } from "../support/api";
import { pdfOfSize, postMultipart } from "../support/multipart";
import { chatSocket, sleep } from "../support/ws";

const world = inject("scale");
const [A, B] = world.instances as [(typeof world.instances)[0], (typeof world.instances)[0]];
const upstreams = new Set(world.instances.map((i) => i.upstream));
/** The instance that finally answered (nginx lists every one it tried). */
const answeredBy = (h: Headers | Record<string, string | string[] | undefined>) => {
  const v = h instanceof Headers ? h.get("x-upstream") : h["x-upstream"];
  return String(v ?? "")
    .split(",")
    .pop()!
    .trim();
};
const sql = postgres(world.databaseUrl, { max: 2, onnotice: () => {} });
afterAll(() => sql.end());

async function person() {
  const user = await createUser();
  return { user, token: await login(user.username, user.password) };
}

/** GET through nginx from a chosen loopback address (the proxy's peer) with a spoofed X-Forwarded-For. */
function getFrom(localAddress: string, path: string, spoof: string) {
  const url = new URL(path, world.nginxUrl);
  return new Promise<{ status: number; upstream: string; remaining: string }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, localAddress, headers: { "x-forwarded-for": spoof } }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode!, upstream: answeredBy(res.headers as Record<string, string>), remaining: String(res.headers.ratelimit ?? "") }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("two instances behind nginx", () => {
  it("alternates requests between the instances", async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${world.nginxUrl}/api/health`);
      expect(res.status).toBe(200);
      seen.push(answeredBy(res.headers));
    }
    expect(new Set(seen)).toEqual(upstreams);
    expect(seen[0]).not.toBe(seen[1]);
  });

  it("signs in on one instance and is signed in on the other", async () => {
    const user = await createUser();
    // NextAuth's CSRF token and cookie come from one instance, the credentials callback goes to
    // the other: both are signed with the shared AUTH_SECRET.
    const csrfRes = await fetch(`${world.nginxUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const csrfCookie = csrfRes.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const callback = await fetch(`${world.nginxUrl}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({ csrfToken, email: user.username, password: user.password, callbackUrl: "/", json: "true" }).toString(),
      redirect: "manual",
    });
    expect(callback.status).toBe(200);
    expect(answeredBy(callback.headers)).not.toBe(answeredBy(csrfRes.headers));
    const cookie = callback.headers
      .getSetCookie()
      .find((c) => c.startsWith("next-auth.session-token="))
      ?.split(";")[0];
    expect(cookie).toBeTruthy();

    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const me = await api<{ user: { id: string } }>("/api/auth/me", { cookie });
      expect(me.status).toBe(200);
      expect(me.body.user.id).toBe(user.id);
      seen.add(answeredBy(me.headers));
    }
    expect(seen).toEqual(upstreams);

    // A token issued by instance A works on B; signing out on B ends it on A.
    const issued = await fetch(`${A.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.username, password: user.password }),
    });
    const { token } = (await issued.json()) as { token: string };
    const meOn = (inst: typeof A) => fetch(`${inst.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await meOn(B)).toBe(200);
    expect((await fetch(`${B.url}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(await meOn(A)).toBe(401);
    expect(await meOn(B)).toBe(401);
    // The cookie session is a different session and still works.
    expect((await api("/api/auth/me", { cookie })).status).toBe(200);
  });

  it("carries chat across instances, over WebSockets upgraded by nginx", async () => {
    const sender = await person();
    const recipient = await person();
    const base = world.nginxUrl;
    // Consecutive upgrades alternate, so the recipient has a socket on each instance.
    const r1 = await chatSocket(recipient.token, { base });
    const r2 = await chatSocket(recipient.token, { base });
    expect(new Set([answeredBy(r1.upgradeHeaders), answeredBy(r2.upgradeHeaders)])).toEqual(upstreams);
    const s = await chatSocket(sender.token, { base });

    s.send({ type: "message", to: recipient.user.id, content: "over the socket", ref: "r1" });
    const ack = await s.waitFor("ack");
    for (const r of [r1, r2]) expect(await r.waitFor("message")).toMatchObject({ id: ack.id, from: sender.user.id, content: "over the socket" });

    // REST through nginx reaches both sockets too, whichever instance stored it.
    const rest = await api<{ message: { id: string } }>("/api/chat/messages", { token: sender.token, json: { to: recipient.user.id, content: "over REST" } });
    expect(rest.status).toBe(201);
    for (const r of [r1, r2]) expect((await r.waitFor((f) => f.id === rest.body.message.id)).content).toBe("over REST");
    expect((await s.waitFor((f) => f.id === rest.body.message.id)).content).toBe("over REST");

    await sleep(200);
    for (const r of [r1, r2]) expect(r.all("message")).toHaveLength(2);
    for (const c of [r1, r2, s]) c.close();
  });

  it("shares rate limits between the instances, per client address behind the proxy", async () => {
    const limit = world.anonLimit;
    // One client (127.0.0.7 as nginx sees it) sending a different X-Forwarded-For every time: the
    // app counts the address nginx appended, so spoofing does not buy fresh buckets.
    const answers = await Promise.all(Array.from({ length: limit + 10 }, (_, i) => getFrom("127.0.0.7", "/api/categories", `203.0.113.${i}`)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(limit);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    // Both instances counted into the one bucket.
    expect(new Set(ok.map((a) => a.upstream))).toEqual(upstreams);
    const remaining = ok.map((a) => Number(/remaining=(\d+)/.exec(a.remaining)?.[1])).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => i));
    // Another client address has a bucket of its own.
    expect((await getFrom("127.0.0.8", "/api/categories", "203.0.113.1")).status).toBe(200);
  });

  it("serves an upload stored through one instance from the other (shared storage)", async () => {
    const seller = await createUser("SELLER");
    const token = await login(seller.username, seller.password);
    // 3 MiB: above nginx's default 1 MiB body limit, so the documented client_max_body_size counts.
    const size = 3 * 1024 * 1024;
    const hash = createHash("sha256");
    for await (const c of pdfOfSize(size)()) hash.update(c);
    const expected = hash.digest("hex");
    const up = await postMultipart(
      `${world.nginxUrl}/api/upload`,
      token,
      [
        { name: "type", value: "boothDocument" },
        { name: "file", filename: "catalogue.pdf", data: pdfOfSize(size) },
      ],
      { stream: true },
    );
    expect(up.status, up.text).toBe(201);
    const storedBy = answeredBy(up.headers);
    const other = world.instances.find((i) => i.upstream !== storedBy)!;
    const sources = [`${other.url}`, world.nginxUrl, world.nginxUrl];
    const servedBy = new Set<string>();
    for (const base of sources) {
      const res = await fetch(`${base}${up.body.url as string}`);
      expect(res.status).toBe(200);
      if (base === world.nginxUrl) servedBy.add(answeredBy(res.headers));
      expect(
        createHash("sha256")
          .update(Buffer.from(await res.arrayBuffer()))
          .digest("hex"),
      ).toBe(expected);
    }
    expect(servedBy).toEqual(upstreams);
  });

  // Last: it kills instance B.
  it("loses no acknowledged write when an instance is killed, and nginx keeps serving from the other", async () => {
    // Six clients, each writing to the same recipient (a pair's messages are serialized, so one
    // sender each keeps the writes concurrent).
    const recipient = await person();
    const senders = await Promise.all(Array.from({ length: 6 }, () => person()));
    const run = Date.now().toString(36);
    const t0 = Date.now();
    type Write = { content: string; key: string; status: number; id?: string; upstream: string; afterKill: boolean };
    const writes: Write[] = [];
    let killed = false;
    let acked = 0;
    let ackedAfterKill = 0;
    const send = async (w: number, content: string, key: string) => {
      const res = await api<{ message: { id: string } }>("/api/chat/messages", {
        token: senders[w]!.token,
        json: { to: recipient.user.id, content },
        headers: { "idempotency-key": key },
      }).catch((err: unknown) => ({ status: 0, body: { message: { id: "" } }, headers: new Headers(), text: String(err) }));
      return { status: res.status, id: res.status === 201 ? res.body.message.id : undefined, upstream: answeredBy(res.headers) };
    };
    const deadline = Date.now() + 60_000;
    const worker = async (w: number) => {
      for (let n = 0; ackedAfterKill < 40 && Date.now() < deadline; n++) {
        const content = `${run} write ${w}-${n}`;
        const afterKill = killed;
        const r = await send(w, content, `${run}-${w}-${n}`);
        writes.push({ content, key: `${run}-${w}-${n}`, afterKill, ...r });
        if (r.status === 201) {
          acked++;
          if (afterKill) ackedAfterKill++;
        }
        if (!killed && acked >= 40) {
          killed = true;
          process.kill(B.pid, "SIGKILL");
        }
      }
    };
    await Promise.all(senders.map((_, w) => worker(w)));
    const tWrites = Date.now() - t0;

    expect(ackedAfterKill).toBeGreaterThanOrEqual(40);
    const ok = writes.filter((w) => w.status === 201);
    const failed = writes.filter((w) => w.status !== 201);
    // Only requests that were inside B when it died can fail, and nginx answers them 502.
    expect(failed.length).toBeLessThanOrEqual(6);
    for (const f of failed) expect(f.status).toBe(502);
    // Once B is gone nginx sends everything to A.
    expect(writes.filter((w) => w.afterKill && w.status === 201).every((w) => w.upstream === A.upstream)).toBe(true);

    // Every acknowledged write is in the database, with the id the client was given.
    const rows = await sql<{ id: string; content: string }[]>`select id, content from messages where content like ${`${run} write %`}`;
    const stored = new Map(rows.map((r) => [r.content, r.id]));
    for (const w of ok) expect(stored.get(w.content), w.content).toBe(w.id);
    expect(rows.length).toBe(new Set(rows.map((r) => r.content)).size);

    // The client retries what failed with the same Idempotency-Key, as an agent does (409 while
    // the key is in flight: wait as Retry-After says). Each is stored exactly once in the end.
    let waits = 0;
    for (const f of failed) {
      const w = Number(f.key.split("-")[1]);
      let again = await send(w, f.content, f.key);
      for (let i = 0; i < 5 && again.status === 409; i++, waits++) {
        await sleep(1000);
        again = await send(w, f.content, f.key);
      }
      expect(again.status, f.content).toBe(201);
    }
    const after = await sql<
      { content: string; n: number }[]
    >`select content, count(*)::int as n from messages where content like ${`${run} write %`} group by content`;
    expect(after.length).toBe(writes.length);
    expect(after.every((r) => r.n === 1)).toBe(true);

    // nginx keeps answering, health and reads, from the survivor.
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`${world.nginxUrl}${i % 2 ? "/api/health" : "/api/chat/conversations"}`, { headers: { authorization: `Bearer ${recipient.token}` } }),
      ),
    );
    for (const r of reads) {
      expect(r.status).toBe(200);
      expect(answeredBy(r.headers)).toBe(A.upstream);
    }
    console.log(
      `kill test: ${writes.length} writes in ${tWrites} ms, ${ok.length} acknowledged (${ackedAfterKill} after the kill), ${failed.length} cut off and retried (${waits} waits on 409)`,
    );
  }, 150_000);
});
