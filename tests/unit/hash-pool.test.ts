import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bcryptCompare, bcryptHash } from "@/lib/auth/hash-pool";

/** The nice value of every thread of this process (Linux /proc), by thread id. */
function threadNices(): number[] {
  return readdirSync("/proc/self/task").map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]));
}

describe("bcrypt worker pool", () => {
  it("hashes off the event loop in threads that run below it (nice 10)", async () => {
    const before = threadNices().filter((n) => n === 10).length;
    const hash = await bcryptHash("correct horse", 10);
    expect(await bcryptCompare("correct horse", hash)).toBe(true);
    expect(await bcryptCompare("wrong horse", hash)).toBe(false);
    // The pool's workers lowered their own priority; the event loop's thread did not.
    expect(threadNices().filter((n) => n === 10).length).toBeGreaterThan(before);
    expect(Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[16])).toBe(0);
  });
});
