// A cached relevance page's kept candidates (list-cache.ts), held as numbers: each product and category id
// is numbered once per process, and a candidate is its product's number, score, creation time and
// category's number in typed arrays. Held as strings, arrays and a map per answer, the bench's ~1,500 cached
// searches kept ~1.6 million id strings and as many map entries alive (each answer parses its own copies),
// and the collector walked them all on every major collection (issue #12: stalls of 250 ms with writes).
import type { Candidate } from "./search-sql";

/** Ids as numbers, for every kept set made while it is current (on globalThis: Next loads modules twice). */
class Numbering {
  readonly of = new Map<string, number>();
  readonly ids: string[] = [];
  number(id: string): number {
    let n = this.of.get(id);
    if (n === undefined) {
      n = this.ids.length;
      this.ids.push(id);
      this.of.set(id, n);
    }
    return n;
  }
}
/** Past this many ids a new numbering starts: sets made before keep theirs, and are dropped with their answers. */
const NUMBERING_MAX = 2_000_000;
const KEY = Symbol.for("expo-trade.kept-candidates.numbering");
/** Products and categories apart: a lookup in the few hundred categories is cheaper than in every product seen. */
function numbering(kind: "products" | "categories"): Numbering {
  const g = globalThis as typeof globalThis & { [KEY]?: Record<typeof kind, Numbering> };
  const all = (g[KEY] ??= { products: new Numbering(), categories: new Numbering() });
  if (all[kind].ids.length >= NUMBERING_MAX) all[kind] = new Numbering();
  return all[kind];
}

/** Memory of one kept candidate: four numbers and its place in the lookup order (its id's entry is shared). */
export const KEPT_BYTES = 24;

/** Candidates newest first, as the ranking statement returns them: place i is the i-th newest. */
export class Kept {
  readonly size: number;
  /** The oldest candidate's creation time (microseconds). */
  readonly oldest: number;
  private readonly names: Numbering;
  private readonly categoryNames: Numbering;
  private readonly nums: Int32Array;
  private readonly categories: Int32Array;
  readonly scores: Int32Array;
  readonly created: Float64Array;
  /** Places ordered by product number, for place(). */
  private readonly order: Int32Array;

  constructor(candidates: Candidate[]) {
    const names = numbering("products");
    const categoryNames = numbering("categories");
    const n = candidates.length;
    this.names = names;
    this.categoryNames = categoryNames;
    this.size = n;
    // Filled by index: TypedArray.from over an array goes through its iterator, an object per element.
    this.nums = new Int32Array(n);
    this.categories = new Int32Array(n);
    this.scores = new Int32Array(n);
    this.created = new Float64Array(n);
    this.order = new Int32Array(n);
    let oldest = Infinity;
    for (let i = 0; i < n; i++) {
      const c = candidates[i]!;
      this.nums[i] = names.number(c.id);
      this.categories[i] = categoryNames.number(c.category);
      this.scores[i] = c.score;
      this.created[i] = c.created;
      this.order[i] = i;
      if (c.created < oldest) oldest = c.created;
    }
    this.oldest = oldest;
    const nums = this.nums;
    this.order.sort((a, b) => nums[a]! - nums[b]!);
  }

  /** The product's place (0: the newest), or -1 when it is not kept. */
  place(id: string): number {
    const n = this.names.of.get(id);
    if (n === undefined) return -1;
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.nums[this.order[mid]!]!;
      if (at === n) return this.order[mid]!;
      if (at < n) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The candidate at a place (its id and category are the shared strings). */
  candidate(i: number): Candidate {
    return { id: this.names.ids[this.nums[i]!]!, score: this.scores[i]!, created: this.created[i]!, category: this.categoryNames.ids[this.categories[i]!]! };
  }

  has(id: string): boolean {
    return this.place(id) >= 0;
  }

  /** The kept candidates but those leaving, as the ranking takes them (their ids and categories are the shared strings). */
  without(leaving: Set<string>): Candidate[] {
    const out: Candidate[] = [];
    const ids = this.names.ids;
    for (let i = 0; i < this.size; i++) if (!leaving.has(ids[this.nums[i]!]!)) out.push(this.candidate(i));
    return out;
  }
}
