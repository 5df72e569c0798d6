// Which cached answers a changed product can touch, found without visiting every answer (issue #12:
// each catalog change was held against every cached answer and count, ~3,000 of them, on the event
// loop that serves the reads). An answer whose query has terms can match a product only if every term
// is inside the product's search text (matcher.ts `matches`), so it is filed under one of them, its
// longest (the anchor); a text is scanned once for every filed anchor that occurs in it, by the anchors'
// first two code units (one for single-character anchors). Answers without terms are always visited.
// What it finds is the same superset `matches` decides from: an anchor anywhere in the text, word start
// or not.
import type { CatalogChange } from "./catalog-feed";

/** The search texts of a product change's states (one when they are the same). */
export function changedTexts(ch: Pick<CatalogChange, "before" | "after">): string[] {
  const b = ch.before?.text;
  const a = ch.after?.text;
  return b === undefined ? (a === undefined ? [] : [a]) : a === undefined || a === b ? [b] : [b, a];
}

/**
 * Calls `visit` with every entry of `entries` a change can touch: all of them for a change other than a
 * product's, else those filed in `index` under an anchor its texts hold, and those `also` names (a page
 * showing the product). Each entry once, changes in order.
 */
export function eachTouched<E>(
  changes: readonly CatalogChange[],
  entries: ReadonlyMap<string, E>,
  index: AnchorIndex<string>,
  visit: (e: E, ch: CatalogChange) => void,
  also?: (ch: CatalogChange) => Iterable<string> | undefined,
) {
  for (const ch of changes) {
    if (ch.kind !== "product") {
      for (const e of entries.values()) visit(e, ch);
      continue;
    }
    const keys = new Set<string>();
    index.collect(changedTexts(ch), keys);
    for (const k of also?.(ch) ?? []) keys.add(k);
    for (const k of keys) {
      const e = entries.get(k);
      if (e) visit(e, ch);
    }
  }
}

/** Keys filed by the anchor of their terms. */
export class AnchorIndex<K> {
  /** First code unit -> second code unit -> anchors of 2+ code units starting with them. */
  private readonly pairs = new Map<number, Map<number, string[]>>();
  /** Anchors of one code unit. */
  private readonly singles = new Map<number, string>();
  private readonly keysOf = new Map<string, Set<K>>();
  /** Keys whose query has no terms: every product change may touch them. */
  private readonly unanchored = new Set<K>();

  /** The term an answer is filed under: its longest (the rarest, as a rule), or null without terms. */
  static anchorOf(terms: readonly string[]): string | null {
    let best: string | null = null;
    for (const t of terms) if (t.length > 0 && (best === null || t.length > best.length)) best = t;
    return best;
  }

  /** Files `key` under the anchor of `terms`. */
  add(terms: readonly string[], key: K) {
    const anchor = AnchorIndex.anchorOf(terms);
    if (anchor === null) {
      this.unanchored.add(key);
      return;
    }
    let keys = this.keysOf.get(anchor);
    if (!keys) {
      this.keysOf.set(anchor, (keys = new Set()));
      if (anchor.length === 1) this.singles.set(anchor.charCodeAt(0), anchor);
      else {
        const a = anchor.charCodeAt(0);
        let second = this.pairs.get(a);
        if (!second) this.pairs.set(a, (second = new Map()));
        const b = anchor.charCodeAt(1);
        const list = second.get(b);
        if (list) list.push(anchor);
        else second.set(b, [anchor]);
      }
    }
    keys.add(key);
  }

  /** Takes `key` out again (`terms` as it was filed with). */
  delete(terms: readonly string[], key: K) {
    const anchor = AnchorIndex.anchorOf(terms);
    if (anchor === null) {
      this.unanchored.delete(key);
      return;
    }
    const keys = this.keysOf.get(anchor);
    if (!keys?.delete(key) || keys.size) return;
    this.keysOf.delete(anchor);
    if (anchor.length === 1) {
      this.singles.delete(anchor.charCodeAt(0));
      return;
    }
    const a = anchor.charCodeAt(0);
    const second = this.pairs.get(a)!;
    const b = anchor.charCodeAt(1);
    const list = second.get(b)!.filter((x) => x !== anchor);
    if (list.length) second.set(b, list);
    else {
      second.delete(b);
      if (!second.size) this.pairs.delete(a);
    }
  }

  /** Adds to `out` every key whose anchor occurs in one of `texts`, and every unanchored key. */
  collect(texts: readonly string[], out: Set<K>) {
    for (const k of this.unanchored) out.add(k);
    const found = new Set<string>();
    for (const text of texts) {
      for (let i = 0; i < text.length; i++) {
        const a = text.charCodeAt(i);
        const single = this.singles.get(a);
        if (single !== undefined) found.add(single);
        const second = this.pairs.get(a);
        if (!second || i + 1 >= text.length) continue;
        const list = second.get(text.charCodeAt(i + 1));
        if (!list) continue;
        for (const anchor of list) if (!found.has(anchor) && text.startsWith(anchor, i)) found.add(anchor);
      }
    }
    for (const anchor of found) for (const k of this.keysOf.get(anchor)!) out.add(k);
  }

  /** Keys filed, anchored or not. */
  get size(): number {
    let n = this.unanchored.size;
    for (const keys of this.keysOf.values()) n += keys.size;
    return n;
  }
}
