// A small pool of worker threads for bcrypt, so password hashing (tens of milliseconds of CPU each)
// never blocks the event loop that serves every other request. One pool per process on globalThis:
// Next loads this module twice (the custom server's copy and the bundled one).
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { env } from "@/lib/env";

type Task = { op: "hash"; password: string; cost: number } | { op: "compare"; password: string; hash: string };
type Pending = { resolve: (v: string | boolean) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; pending: Map<number, Pending> };
type Pool = { slots: Slot[]; size: number; nextId: number; workerFile: string; counts: Record<Task["op"], number> };

const KEY = Symbol.for("expo-trade.hash-pool");
type G = typeof globalThis & { [KEY]?: Pool };

/** BCRYPT_THREADS, or one thread per core but one left to the event loop (1 to 4). */
export function poolSize(): number {
  return env().BCRYPT_THREADS ?? Math.max(1, Math.min(4, availableParallelism() - 1));
}

function workerFile(): string {
  // Resolved from the project root at run time (both module copies agree on it; bundlers leave it).
  const file = path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "auth", "hash-worker.mjs");
  if (!existsSync(file)) throw new Error(`bcrypt worker not found at ${file}: start the server from the project directory`);
  return file;
}

function pool(): Pool {
  const g = globalThis as G;
  g[KEY] ??= { slots: [], size: poolSize(), nextId: 1, workerFile: workerFile(), counts: { hash: 0, compare: 0 } };
  return g[KEY];
}

function spawn(p: Pool): Slot {
  const slot: Slot = { worker: new Worker(p.workerFile), pending: new Map() };
  // Idle workers do not keep the process alive (scripts, tests); a busy one does.
  slot.worker.unref();
  slot.worker.on("message", (msg: { id: number; result?: string | boolean; error?: string }) => {
    const task = slot.pending.get(msg.id);
    if (!task) return;
    slot.pending.delete(msg.id);
    if (slot.pending.size === 0) slot.worker.unref();
    if (msg.error !== undefined) task.reject(new Error(msg.error));
    else task.resolve(msg.result!);
  });
  const fail = (err: Error) => {
    p.slots = p.slots.filter((s) => s !== slot);
    for (const t of slot.pending.values()) t.reject(err);
    slot.pending.clear();
  };
  slot.worker.on("error", fail);
  slot.worker.on("exit", (code) => fail(new Error(`bcrypt worker exited with code ${code}`)));
  return slot;
}

function run(task: Task): Promise<string | boolean> {
  const p = pool();
  // The least busy worker; a new one while the pool is below its size and all are busy.
  let slot = p.slots.reduce<Slot | undefined>((best, s) => (!best || s.pending.size < best.pending.size ? s : best), undefined);
  if (!slot || (slot.pending.size > 0 && p.slots.length < p.size)) {
    slot = spawn(p);
    p.slots.push(slot);
  }
  const id = p.nextId++;
  p.counts[task.op]++;
  const target = slot;
  return new Promise((resolve, reject) => {
    target.pending.set(id, { resolve, reject });
    target.worker.ref();
    target.worker.postMessage({ id, ...task });
  });
}

export async function bcryptHash(password: string, cost: number): Promise<string> {
  return (await run({ op: "hash", password, cost })) as string;
}

export async function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return (await run({ op: "compare", password, hash })) === true;
}

/** bcrypt operations this process has started since it began, by kind (what a request cost, for tests and profiles). */
export function bcryptCounts(): Readonly<Record<Task["op"], number>> {
  return { ...pool().counts };
}
