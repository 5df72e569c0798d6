// Which message namespaces the client components under a page or layout use, read from the sources.
// Pages hand the browser only those namespaces (lib/i18n/client-messages.tsx); this walk is how the
// unit test (tests/unit/client-messages.test.ts) proves each page's list covers what its client
// components call `useTranslations` with. Test tooling: it reads the sources with Node, it is never bundled.
import fs from "node:fs";
import path from "node:path";

const EXTENSIONS = [".tsx", ".ts", "/index.tsx", "/index.ts"];
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;
const NAMESPACE = /useTranslations\(\s*["']([A-Za-z0-9_]+)(?:\.[A-Za-z0-9_.]+)?["']\s*\)/g;
const ANY_TRANSLATIONS = /useTranslations\(/g;

export interface ModuleInfo {
  file: string;
  client: boolean;
  imports: string[];
  namespaces: string[];
  /** useTranslations calls whose namespace is not a string literal (the walk cannot know them). */
  dynamicCalls: number;
}

export function createGraph(root: string) {
  const cache = new Map<string, ModuleInfo>();

  function resolve(from: string, spec: string): string | undefined {
    let base: string;
    if (spec.startsWith("@/")) base = path.join(root, spec.slice(2));
    else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
    else return undefined; // a package
    if (/\.(tsx?|mjs|js)$/.test(base) && fs.existsSync(base)) return base;
    for (const ext of EXTENSIONS) if (fs.existsSync(base + ext)) return base + ext;
    return undefined; // css, json and other assets
  }

  function info(file: string): ModuleInfo {
    const known = cache.get(file);
    if (known) return known;
    const text = fs.readFileSync(file, "utf8");
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const imports: string[] = [];
    for (const m of code.matchAll(IMPORT)) {
      const target = resolve(file, m[1] ?? m[2] ?? m[3] ?? "");
      if (target) imports.push(target);
    }
    const namespaces = [...code.matchAll(NAMESPACE)].flatMap((m) => (m[1] ? [m[1]] : []));
    const calls = code.match(ANY_TRANSLATIONS)?.length ?? 0;
    const out: ModuleInfo = {
      file,
      client: /^\s*["']use client["']/.test(code),
      imports,
      namespaces: [...new Set(namespaces)],
      dynamicCalls: calls - namespaces.length,
    };
    cache.set(file, out);
    return out;
  }

  /**
   * The namespaces of every client module reachable from `entry` (server modules are walked through;
   * everything a client module imports runs on the client too), and the client modules themselves.
   */
  function clientNeeds(entry: string): { namespaces: Set<string>; clientModules: Set<string>; dynamic: string[] } {
    const namespaces = new Set<string>();
    const clientModules = new Set<string>();
    const dynamic: string[] = [];
    const seen = new Set<string>();
    const walk = (file: string, onClient: boolean) => {
      const key = `${onClient ? "c" : "s"}:${file}`;
      if (seen.has(key)) return;
      seen.add(key);
      const m = info(file);
      const client = onClient || m.client;
      if (client) {
        clientModules.add(file);
        for (const ns of m.namespaces) namespaces.add(ns);
        if (m.dynamicCalls > 0) dynamic.push(file);
      }
      for (const dep of m.imports) walk(dep, client);
    };
    walk(entry, false);
    return { namespaces, clientModules, dynamic };
  }

  return { info, clientNeeds };
}
