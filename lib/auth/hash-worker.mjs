// bcrypt in a worker thread (lib/auth/hash-pool.ts). A plain .mjs file loaded by Node itself, never
// bundled, so the custom server (tsx) and Next's bundled route handlers start the same file.
import { parentPort } from "node:worker_threads";
import bcrypt from "bcryptjs";

parentPort.on("message", (task) => {
  try {
    const result = task.op === "hash" ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
    parentPort.postMessage({ id: task.id, result });
  } catch (err) {
    parentPort.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) });
  }
});
