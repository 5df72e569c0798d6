import { Fragment, type ReactNode } from "react";

// Private-use characters never occur in a catalog or in Intl's output, so they mark a slot safely.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const SLOT = new RegExp(`${OPEN}(\\d+)${CLOSE}`);

/**
 * A translated sentence with elements in its slots: `render` formats the message with a marker for
 * each name in `nodes` (plain ICU arguments, so no catalog change), and the markers become those
 * elements. A <Price> or a <bdi> placed this way keeps its own bidi isolate while the page's text
 * stays exactly the sentence (no FSI/PDI characters in textContent, copy or search).
 */
export function fill(render: (marks: Record<string, string>) => string, nodes: Record<string, ReactNode>): ReactNode {
  const keys = Object.keys(nodes);
  const marks = Object.fromEntries(keys.map((k, i) => [k, `${OPEN}${i}${CLOSE}`]));
  const parts = render(marks).split(SLOT);
  return parts.map((part, i) => (i % 2 === 1 ? <Fragment key={i}>{nodes[keys[Number(part)]!]}</Fragment> : part));
}

/** The text before and after one argument of a translated sentence ("by {company}" -> ["by ", ""]). */
export function around(render: (mark: string) => string): [string, string] {
  const [before = "", after = ""] = render(OPEN).split(OPEN);
  return [before, after];
}
