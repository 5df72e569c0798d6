// lib/db/keyed-batch.ts: the group commit shared by rate-limit counters and page versions. With a
// run whose end the test decides, what the integration tests cannot pin down: a caller arriving while
// a run is in flight is never answered by it, only by the next one.
import { describe, expect, it } from "vitest";
import { KeyedBatch, type Waiting } from "@/lib/db/keyed-batch";

type Run = { keys: string[]; sizes: number[]; finish: (err?: Error) => void };

/** A batch whose runs answer each waiter with "<key>@<run number>", once the test finishes them. */
function controlled(start?: (go: () => void) => void) {
  const runs: Run[] = [];
  const batch = new KeyedBatch<string, string>(
    (waiting: Waiting<string, string>[]) =>
      new Promise<void>((resolve, reject) => {
        const n = runs.length + 1;
        runs.push({
          keys: waiting.map((w) => w.item),
          sizes: waiting.map((w) => w.waiters.length),
          finish: (err) => {
            if (err) return reject(err);
            for (const w of waiting) for (const x of w.waiters) x.resolve(`${w.item}@${n}`);
            resolve();
          },
        });
      }),
    start,
  );
  return { batch, runs };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("KeyedBatch", () => {
  it("starts a run at once when idle and puts callers arriving meanwhile in the next one, never in the run under way", async () => {
    const { batch, runs } = controlled();
    const first = batch.add("a", "a");
    expect(runs.map((r) => r.keys)).toEqual([["a"]]);
    // Arriving while run 1 is in flight: the same key again and two others, the same key twice.
    const later = [batch.add("a", "a"), batch.add("b", "b"), batch.add("c", "c"), batch.add("b", "b")];
    runs[0]!.finish();
    expect(await first).toBe("a@1");
    await tick();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.keys).toEqual(["a", "b", "c"]);
    expect(runs[1]!.sizes).toEqual([1, 2, 1]);
    runs[1]!.finish();
    expect(await Promise.all(later)).toEqual(["a@2", "b@2", "c@2", "b@2"]);
    // Idle again: the next caller starts a run of its own.
    const again = batch.add("a", "a");
    expect(runs).toHaveLength(3);
    runs[2]!.finish();
    expect(await again).toBe("a@3");
  });

  it("rejects the callers of a failed run only, and goes on with the next", async () => {
    const { batch, runs } = controlled();
    const failing = batch.add("a", "a");
    const next = batch.add("b", "b");
    // Run 1 started at once with "a" alone; "b" waits for the next.
    expect(runs[0]!.keys).toEqual(["a"]);
    runs[0]!.finish(new Error("database unavailable"));
    await expect(failing).rejects.toThrow("database unavailable");
    await tick();
    expect(runs[1]!.keys).toEqual(["b"]);
    runs[1]!.finish();
    expect(await next).toBe("b@2");
  });

  it("with a deferred start, callers of the same turn of the event loop share the first run", async () => {
    const { batch, runs } = controlled((go) => setImmediate(go));
    const same = [batch.add("x", "x"), batch.add("y", "y"), batch.add("x", "x")];
    expect(runs).toHaveLength(0);
    await tick();
    expect(runs.map((r) => r.keys)).toEqual([["x", "y"]]);
    runs[0]!.finish();
    expect(await Promise.all(same)).toEqual(["x@1", "y@1", "x@1"]);
  });
});
