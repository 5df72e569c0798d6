// How deep JSON text nests, found by one pass over the characters before anything parses it
// (contract 9.1): JSON.parse, the NUL scan and zod each walk the value, and a body of 500,000 "["
// costs them far more than its size suggests (zod recurses, and can exhaust the stack). Strings are
// skipped, so brackets inside them do not count.

export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `max` arrays/objects inside one another. Malformed text is left to JSON.parse. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote (an escaped character is skipped with its backslash).
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
