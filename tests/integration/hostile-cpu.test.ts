// Contract 9.1 and issue #13 point 6: a 1 MiB hostile body costs the server at most 3x the CPU of a
// 1 MiB ordinary one at the same endpoint. A server of this file's own (so nothing else runs in it),
// its CPU time read from /proc (every thread's schedstat, in nanoseconds), compared as a ratio: the
// median over interleaved trials, never a duration.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createSeller, someCategory, useServer } from "../support/api";
import { startServer, type RunningServer } from "../support/server";

const MIB = 1024 * 1024;
/** Requests per sample: /proc's clock is exact, the work of one request is not steady. */
const PER_SAMPLE = 6;
const TRIALS = 5;

/** `head + filler... + tail` of exactly 1 MiB of UTF-8 (the largest body the API reads). */
function body(head: string, unit: string, tail: string): string {
  const room = MIB - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const n = Math.floor(room / Buffer.byteLength(unit));
  return head + unit.repeat(n) + " ".repeat(room - n * Buffer.byteLength(unit)) + tail;
}

const product = '"price":10,"currency":"USD","category":"x","moq":1';
const ORDINARY = body(`{"title":"Desk lamp",${product},"description":"`, "A warm LED desk lamp with a brass arm, dimmable, for offices. ", '"}');
const HOSTILE: Record<string, string> = {
  // Nesting: refused before JSON.parse, zod or the NUL scan would walk 500,000 levels.
  "deep nesting": body(`{${product},"title":`, "[", ""),
  // 1 MiB strings of the cleaners' and the normalizer's worst cases, parsed and refused by the
  // schema (at most 200 characters); the last test sends them at a length the API accepts.
  "dots and spaces": body(`{${product},"title":"x`, " .", 'x"}'),
  "one long word": body(`{${product},"title":"`, "क", '"}'),
  // ~90,000 keys: refused unparsed (more than 10,000 values); JSON.parse and the NUL scan would see every one.
  "many keys": manyKeys(),
  // Just under the cap, so parsed, scanned and validated: 9,900 keys of ~100 characters each.
  "keys under the cap": keysUnderCap(),
  // ~260,000 empty arrays side by side: wide rather than deep, refused unparsed too.
  "wide arrays": body(`{${product},"title":"t","keywords":[[]`, ",[]", "]}"),
};

function manyKeys(): string {
  const head = `{${product},"title":"t"`;
  const keys: string[] = [];
  let size = Buffer.byteLength(head) + 1;
  for (let i = 0; ; i++) {
    const key = `,"k${i}":0`;
    if (size + key.length > MIB) break;
    keys.push(key);
    size += key.length;
  }
  return head + keys.join("") + " ".repeat(MIB - size) + "}";
}

function keysUnderCap(): string {
  const head = `{${product},"title":"t"`;
  const n = 9_900;
  const each = Math.floor((MIB - Buffer.byteLength(head) - 1) / n);
  const keys = Array.from({ length: n }, (_, i) => {
    const key = `,"k${i}":"`;
    return key + "v".repeat(each - key.length - 1) + '"';
  }).join("");
  return head + keys + " ".repeat(MIB - Buffer.byteLength(head) - keys.length - 1) + "}";
}

/** CPU time the server process used so far (all threads), in nanoseconds. */
function cpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: process.env.DATABASE_URL ?? "" }, { timeoutMs: 240_000 });
  useServer(server.url);
  token = (await createSeller()).token;
}, 300_000);

afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

async function post(text: string): Promise<number> {
  const res = await fetch(`${server.url}/api/products`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: text,
  });
  await res.arrayBuffer();
  return res.status;
}

async function sample(text: string): Promise<number> {
  const pid = server.child.pid!;
  const before = cpuNs(pid);
  for (let i = 0; i < PER_SAMPLE; i++) await post(text);
  return cpuNs(pid) - before;
}

/** A product the API accepts (a 20,000-character description, the most it takes), padded with JSON whitespace to 1 MiB. */
function accepted(description: string, category: string): string {
  const text = JSON.stringify({ title: "Desk lamp", price: 10, currency: "USD", category, moq: 1, description });
  return text.slice(0, -1) + " ".repeat(MIB - Buffer.byteLength(text)) + "}";
}

describe("a 1 MiB hostile body", () => {
  it("bodies are 1 MiB, read in full and refused as bad input", async () => {
    for (const text of [ORDINARY, ...Object.values(HOSTILE)]) {
      expect(Buffer.byteLength(text)).toBe(MIB);
      expect(await post(text)).toBe(400);
    }
    const ordinary = await api("/api/products", { token, body: ORDINARY, headers: { "content-type": "application/json" } });
    expect((ordinary.body.errors as { path: string }[]).map((e) => e.path)).toContain("description");
  });

  it.each(Object.keys(HOSTILE))(
    "%s costs at most 3x an ordinary body",
    async (kind) => {
      expect(await medianRatio(HOSTILE[kind]!, ORDINARY, kind)).toBeLessThanOrEqual(3);
    },
    120_000,
  );

  it("accepted text the normalizer's worst case (one markless word, dots and spaces) costs at most 3x ordinary text", async () => {
    const { leaf } = await someCategory();
    const ordinary = accepted("A warm LED desk lamp with a brass arm, dimmable, for offices. ".repeat(400).slice(0, 20_000), leaf.id);
    const word = accepted("क".repeat(20_000), leaf.id);
    const dots = accepted(`x${" .".repeat(9_998)}x`, leaf.id);
    for (const text of [ordinary, word, dots]) {
      expect(Buffer.byteLength(text)).toBe(MIB);
      expect(await post(text)).toBe(201);
    }
    expect(await medianRatio(word, ordinary, "one markless word, accepted")).toBeLessThanOrEqual(3);
    expect(await medianRatio(dots, ordinary, "dots and spaces, accepted")).toBeLessThanOrEqual(3);
  }, 180_000);
});

/** The median over interleaved trials of the CPU a hostile sample costs per ordinary sample. */
async function medianRatio(hostile: string, ordinary: string, kind: string): Promise<number> {
  // Warm: the first requests of a shape compile code paths the later ones reuse.
  for (let i = 0; i < 3; i++) await Promise.all([post(ordinary), post(hostile)]);
  const ratios: number[] = [];
  for (let t = 0; t < TRIALS; t++) {
    const normal = await sample(ordinary);
    const bad = await sample(hostile);
    ratios.push(bad / normal);
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(TRIALS / 2)]!;
  console.log(`CPU ${kind} / ordinary (1 MiB, median of ${TRIALS}): ${median.toFixed(2)} [${ratios.map((r) => r.toFixed(2)).join(", ")}]`);
  return median;
}
