import { describe, expect, it } from "vitest";
import { Kept } from "@/lib/services/catalog/kept-candidates";

// A cached ranking's candidates held as numbers (lib/services/catalog/kept-candidates.ts): what goes in comes
// back out, each product is found at its place, and nothing else is found.
const candidates = Array.from({ length: 1_100 }, (_, i) => ({
  id: `0191a0b2-${String(5_000 - i * 3).padStart(4, "0")}-7000-8000-${String(i).padStart(12, "0")}`,
  score: (i * 7) % 13,
  created: 1_790_000_000_000_000 - i * 1_000_003,
  category: `cat-${i % 17}`,
}));

describe("kept candidates", () => {
  it("give every candidate back as it went in, newest first, but those leaving", () => {
    const k = new Kept(candidates);
    expect(k.size).toBe(1_100);
    expect(k.without(new Set())).toEqual(candidates);
    const leaving = new Set([candidates[0]!.id, candidates[500]!.id, "not-kept"]);
    expect(k.without(leaving)).toEqual(candidates.filter((c) => !leaving.has(c.id)));
    expect(k.oldest).toBe(candidates[1_099]!.created);
  });

  it("find each product at its place, and nothing that is not kept", () => {
    // Numbered first in another order than their places (ids are numbered once per process, as first seen).
    const reversed = new Kept([...candidates].reverse().map((c) => ({ ...c, id: `${c.id}-r` })));
    const k = new Kept(candidates.map((c, i) => (i % 3 === 0 ? { ...c, id: `${c.id}-r` } : c)));
    candidates.forEach((c, i) => expect([i, k.place(i % 3 === 0 ? `${c.id}-r` : c.id)]).toEqual([i, i]));
    expect(reversed.place(`${candidates[0]!.id}-r`)).toBe(1_099);
    // Unknown ids, a category's id, and a product another set keeps.
    const other = new Kept([{ id: "elsewhere", score: 1, created: 1, category: "cat-0" }]);
    expect([k.place("never-seen"), k.place("cat-3"), k.place("elsewhere"), k.has("elsewhere"), other.has("elsewhere")]).toEqual([-1, -1, -1, false, true]);
    expect(new Kept([]).place(candidates[0]!.id)).toBe(-1);
  });
});
