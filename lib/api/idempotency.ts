// `Idempotency-Key` for POST (contract 1): the same key and body replay the first answer; another
// body is 422 `idempotency_conflict`; a key still being worked on is 409 `idempotency_in_flight`.
// A multipart body is hashed while the handler streams it (streamedBody), never buffered.
// The answer is stored in the transaction of the write it answers (lib/api/route.ts), so a process
// that dies mid-request leaves neither: its key, claimed by an instance no longer connected to the
// database, is then taken over by the client's retry instead of staying in flight for 24 h.
import { createHash } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { uncounted } from "@/lib/db/query-count";
import { idempotencyKeys } from "@/lib/db/schema";
import { sweepDue, sweepRows } from "@/lib/db/sweep";
import { applicationName, instanceId } from "@/lib/instance";
import { ApiError } from "@/lib/errors";
import { eachChunk } from "./body";
import { textResponse } from "./text-response";

const TTL_MS = 24 * 60 * 60 * 1000;

export type IdempotencyClaim = { kind: "new"; owner: string; key: string } | { kind: "replay"; response: Response };

/** Stored for a streamed body until it has been read: its hash is known only then. */
const STREAMED = "streamed";
/** How much of a retry's streamed body is read to compare it with the first (the largest upload and its framing). */
const STREAMED_LIMIT = 101 * 1024 * 1024;

export type StreamedBody = {
  /** The request to hand on: its body is hashed as the handler reads it. */
  req: Request;
  /** The hash once the body was read to the end; null when the handler stopped reading early. */
  digest: () => string | null;
  /** A retry's body read to the end, without acting, to compare it with the first one's. */
  drain: () => Promise<string>;
};

export function streamedBody(req: Request, method: string, path: string): StreamedBody {
  const hash = createHash("sha256").update(`${method}\n${path}\n`);
  let ended = req.body === null;
  const body = req.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        hash.update(chunk);
        out.enqueue(chunk);
      },
      flush() {
        ended = true;
      },
    }),
  );
  const handed = body ? new Request(req.url, { method: req.method, headers: req.headers, body, duplex: "half" } as RequestInit & { duplex: "half" }) : req;
  let digest: string | undefined;
  const final = () => (digest ??= hash.digest("hex"));
  return {
    req: handed,
    digest: () => (ended ? final() : null),
    async drain() {
      if (handed.body) await eachChunk(handed.body, STREAMED_LIMIT, () => {});
      return final();
    },
  };
}

export function requestHash(method: string, path: string, body: string): string {
  return createHash("sha256").update(`${method}\n${path}\n${body}`).digest("hex");
}

export function validateKey(key: string): void {
  if (key.length === 0 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError("validation_failed", "Idempotency-Key must be 1-255 visible ASCII characters", {
      errors: [{ path: "Idempotency-Key", message: "1-255 visible ASCII characters" }],
    });
  }
}

export async function claimKey(db: Db, owner: string, key: string, method: string, path: string, request: string | StreamedBody): Promise<IdempotencyClaim> {
  const hash = typeof request === "string" ? request : STREAMED;
  validateKey(key);
  // Answers past their 24 hours go about once a minute, in batches (lib/db/sweep.ts): housekeeping never fails a request.
  if (sweepDue("idempotency-keys"))
    await uncounted(() => sweepRows(db, idempotencyKeys, lt(idempotencyKeys.createdAt, new Date(Date.now() - TTL_MS)))).catch(() => {});
  // This key's expired answer is forgotten first, so the key can be used afresh.
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, new Date(Date.now() - TTL_MS))));
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ owner, key, method, path, requestHash: hash, state: "in_flight", claimedBy: instanceId() })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length) return { kind: "new", owner, key };
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key)));
  if (!row) return claimKey(db, owner, key, method, path, request);
  // A streamed body is compared once its first answer is stored (and so its hash); a first one
  // still in flight answers 409 below without reading the retry's body.
  const compared = typeof request === "string" ? request : row.state === "done" ? await request.drain() : row.requestHash;
  if (row.requestHash !== compared) {
    throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request");
  }
  if (row.state === "in_flight") {
    if (row.claimedBy !== instanceId() && !(await instanceAlive(db, row.claimedBy))) {
      const taken = await db
        .update(idempotencyKeys)
        .set({ claimedBy: instanceId(), createdAt: new Date() })
        .where(
          and(
            eq(idempotencyKeys.owner, owner),
            eq(idempotencyKeys.key, key),
            eq(idempotencyKeys.state, "in_flight"),
            row.claimedBy === null ? isNull(idempotencyKeys.claimedBy) : eq(idempotencyKeys.claimedBy, row.claimedBy),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      // Another retry may have taken it first: look again.
      return taken.length ? { kind: "new", owner, key } : claimKey(db, owner, key, method, path, request);
    }
    throw new ApiError("idempotency_in_flight", "A request with this Idempotency-Key is still being processed; retry shortly", {
      headers: { "Retry-After": "1" },
    });
  }
  const headers = new Headers(row.responseHeaders ?? {});
  headers.set("Idempotent-Replayed", "true");
  return {
    kind: "replay",
    response:
      row.responseBody === null
        ? new Response(null, { status: row.responseStatus ?? 200, headers })
        : textResponse(row.responseBody, { status: row.responseStatus ?? 200, headers }),
  };
}

/**
 * Whether the instance that claimed a key still has a connection to the database. Every instance
 * names its connections after itself (lib/db/client.ts) and keeps its LISTEN connection open while
 * it runs. On PGlite only one process opens the database, so a claim by another one is a dead one.
 */
async function instanceAlive(db: Db, id: string | null): Promise<boolean> {
  if (!id) return false;
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(sql`pg_stat_activity`)
    .where(sql`application_name = ${applicationName(id)}`)
    .limit(1);
  return rows.length > 0;
}

/** Only the claim this instance holds: another one may have taken it over meanwhile. */
const mine = (owner: string, key: string) => and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key), eq(idempotencyKeys.claimedBy, instanceId()));

/**
 * Store the answer (success or client error); a server error releases the key for a retry, and so
 * does a streamed body the handler did not read to the end (`hash` null: a refusal mid-stream),
 * whose retry cannot be compared with it. False when the claim is no longer this instance's
 * (taken over while it was thought dead).
 */
export async function completeKey(db: Db, owner: string, key: string, response: Response, hash?: string | null): Promise<boolean> {
  if (response.status >= 500 || hash === null) {
    await releaseKey(db, owner, key);
    return true;
  }
  const body = await response.clone().text();
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "location"]) {
    const v = response.headers.get(name);
    if (v) headers[name] = v;
  }
  const stored = await db
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: response.status, responseHeaders: headers, responseBody: body, ...(hash ? { requestHash: hash } : {}) })
    .where(mine(owner, key))
    .returning({ key: idempotencyKeys.key });
  return stored.length > 0;
}

export async function releaseKey(db: Db, owner: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(mine(owner, key));
}
