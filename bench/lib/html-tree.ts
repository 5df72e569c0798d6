// Scenario 6's baseline renders "the same tree" as the app's product page: the app's HTML for a
// product (scripts removed) is parsed once into React elements and rendered with react-dom/server's
// renderToString on the product's first request; the baseline serves that HTML from memory after.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const RENAME: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  charset: "charSet",
  crossorigin: "crossOrigin",
  srcset: "srcSet",
  "http-equiv": "httpEquiv",
};

const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39);/gi, (_, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()] ?? "";
  });

function styleObject(css: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const decl of css.split(";")) {
    const i = decl.indexOf(":");
    if (i < 0) continue;
    const prop = decl.slice(0, i).trim();
    out[prop.startsWith("--") ? prop : prop.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = decl.slice(i + 1).trim();
  }
  return out;
}

type Node = { tag: string; props: Record<string, unknown>; children: (Node | string)[] };

/** A tolerant HTML parser: enough for the markup React itself produced. */
export function parseHtml(html: string): Node {
  const root: Node = { tag: "#root", props: {}, children: [] };
  const stack: Node[] = [root];
  const re =
    /<!--[\s\S]*?-->|<!doctype[^>]*>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      top.children.push(decode(m[5]));
    } else if (m[1]) {
      const tag = m[1].toLowerCase();
      const at = stack.map((n) => n.tag).lastIndexOf(tag);
      if (at > 0) stack.length = at;
    } else if (m[2]) {
      const tag = m[2].toLowerCase();
      const props: Record<string, unknown> = {};
      for (const a of m[3]!.matchAll(/([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
        const name = a[1]!;
        const value = decode(a[2] ?? a[3] ?? a[4] ?? "");
        if (name === "style") props.style = styleObject(value);
        else props[RENAME[name] ?? name] = a[2] === undefined && a[3] === undefined && a[4] === undefined ? true : value;
      }
      if (tag === "script" || tag === "style" || tag === "template") {
        // Raw text: skip scripts (Next's runtime and RSC payload); keep styles verbatim.
        const close = html.indexOf(`</${tag}`, re.lastIndex);
        const text = html.slice(re.lastIndex, close < 0 ? html.length : close);
        re.lastIndex = close < 0 ? html.length : html.indexOf(">", close) + 1;
        if (tag === "style") top.children.push({ tag, props: { ...props, dangerouslySetInnerHTML: { __html: text } }, children: [] });
        continue;
      }
      const node: Node = { tag, props, children: [] };
      top.children.push(node);
      if (!VOID.has(tag) && !m[4]) stack.push(node);
    }
  }
  return root;
}

function toElement(n: Node | string, key?: number): ReactNode {
  if (typeof n === "string") return n;
  const children = n.children.length ? n.children.map((c, i) => toElement(c, i)) : undefined;
  return createElement(n.tag, { ...n.props, key }, ...(children ?? []));
}

export function treeFromHtml(html: string): ReactNode {
  const root = parseHtml(html);
  const htmlNode = root.children.find((c): c is Node => typeof c !== "string" && c.tag === "html");
  return toElement(htmlNode ?? { tag: "div", props: {}, children: root.children });
}

/** product id -> element tree, from DIR/<id>.html snapshots. */
export function loadTrees(dir: string): Map<string, ReactNode> {
  const trees = new Map<string, ReactNode>();
  for (const f of readdirSync(dir)) if (f.endsWith(".html")) trees.set(f.slice(0, -5), treeFromHtml(readFileSync(path.join(dir, f), "utf8")));
  return trees;
}

export const renderTree = (tree: ReactNode) => renderToString(tree);
