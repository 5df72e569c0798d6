// bcrypt in a worker thread (lib/auth/hash-pool.ts). A plain .mjs file loaded by Node itself, never
// bundled, so the custom server (tsx) and Next's bundled route handlers start the same file.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import bcrypt from "bcryptjs";

// Below the event loop: when the cores are busy (or the process is confined to one), the scheduler
// serves requests first and hashes with what is left, so sign-ins wait rather than everyone else.
// Linux applies setpriority to a single thread given its id (/proc/thread-self -> <pid>/task/<tid>).
try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
} catch {
  // Not Linux, or not permitted: hashing still runs off the event loop.
}

parentPort.on("message", (task) => {
  try {
    const result = task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
    parentPort.postMessage({ id: task.id, result });
  } catch (err) {
    parentPort.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) });
  }
});
