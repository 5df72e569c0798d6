// What JSON text would cost, found by one pass over its characters before anything parses it
// (contract 9.1): JSON.parse, the NUL scan and zod each walk the value, and 1 MiB of "[" (500,000
// levels) or of `,"k1":0` (90,000 keys) costs them 10-30x what 1 MiB of ordinary text does. So
// nesting past 64 levels and more than 10,000 values are refused unparsed; no operation takes a
// tenth of either (the largest bodies hold a few hundred values). Strings are skipped, so brackets
// and commas inside them do not count.

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_VALUES = 10_000;

/** Why `text` is refused unparsed (nesting or number of values), or null. Malformed text is left to JSON.parse. */
export function jsonShapeProblem(text: string): string | null {
  let depth = 0;
  // A value per comma and per opening bracket: the count of values, give or take one.
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote (an escaped character is skipped with its backslash).
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x2c) {
      if (++values > MAX_JSON_VALUES) return `More than ${MAX_JSON_VALUES} values`;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return `Nested deeper than ${MAX_JSON_DEPTH} levels`;
      if (++values > MAX_JSON_VALUES) return `More than ${MAX_JSON_VALUES} values`;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return null;
}
