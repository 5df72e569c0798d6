import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createGraph } from "../support/client-graph";

// Each page hands the browser only the message namespaces its client components use
// (lib/i18n/client-messages.tsx). A namespace missing from a page's list shows the user "Namespace.key"
// instead of text, so every list is held equal to what the client code under it calls `useTranslations` with.

const root = path.resolve(__dirname, "../..");
const app = path.join(root, "app");
const DECLARED = /(?:withClientMessages\(|namespaces=\{)\s*\[([^\]]*)\]/g;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "api" ? [] : files(full);
    return /\.tsx$/.test(e.name) ? [full] : [];
  });
}

/** The namespaces a page or layout lists, or null when it sets up no provider of its own. */
function declared(file: string): string[] | null {
  const lists = [...fs.readFileSync(file, "utf8").matchAll(DECLARED)];
  if (lists.length === 0) return null;
  expect(lists, `${path.relative(root, file)} lists its namespaces once`).toHaveLength(1);
  return [...(lists[0]?.[1] ?? "").matchAll(/["']([^"']+)["']/g)].map((m) => m[1] ?? "").sort();
}

describe("client messages", () => {
  const graph = createGraph(root);
  const localeLayout = path.join(app, "[locale]", "layout.tsx");
  const layoutList = declared(localeLayout);

  it("the locale layout lists exactly what its own client components use", () => {
    expect(layoutList).toEqual([...graph.clientNeeds(localeLayout).namespaces].sort());
    expect(layoutList).toContain("Nav");
  });

  it("every page lists exactly the namespaces used under it, and pages without a list use none", () => {
    const pages = files(app).filter((f) => f !== localeLayout);
    expect(pages.length).toBeGreaterThan(40);
    let wrapped = 0;
    for (const file of pages) {
      const name = path.relative(root, file);
      const needs = graph.clientNeeds(file);
      expect(needs.dynamic, `${name}: useTranslations with a namespace the walk cannot read`).toEqual([]);
      const list = declared(file);
      const want = [...needs.namespaces].sort();
      if (list) {
        wrapped++;
        expect(list, name).toEqual(want);
      } else if (file.includes(`${path.sep}[locale]${path.sep}`)) {
        // Rendered under the locale layout's provider, which has only the layout's namespaces.
        expect(
          want.filter((ns) => !layoutList?.includes(ns)),
          name,
        ).toEqual([]);
      } else {
        expect(want, name).toEqual([]);
      }
    }
    expect(wrapped).toBeGreaterThan(25);
  });

  it("the walk follows server modules into client ones, and everything a client module imports", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-graph-"));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    write("page.tsx", `import { Server } from "./server";\nexport default function P() { return <Server />; }\n`);
    write(
      "server.tsx",
      `import { useTranslations } from "next-intl";\nimport { Widget } from "@/widget";\nexport function Server() { const t = useTranslations("ServerOnly"); return <Widget />; }\n`,
    );
    write(
      "widget.tsx",
      `"use client";\nimport { useTranslations } from "next-intl";\nimport { helper } from "./helper";\nexport function Widget() { const t = useTranslations("Widget.form"); return null; }\n`,
    );
    write(
      "helper.ts",
      `import { useTranslations } from "next-intl";\n// useTranslations("Commented")\nexport function helper(ns: string) { useTranslations("Helper"); return useTranslations(ns); }\n`,
    );
    const needs = createGraph(dir).clientNeeds(path.join(dir, "page.tsx"));
    expect([...needs.namespaces].sort()).toEqual(["Helper", "Widget"]);
    expect([...needs.clientModules].map((f) => path.basename(f)).sort()).toEqual(["helper.ts", "widget.tsx"]);
    expect(needs.dynamic.map((f) => path.basename(f))).toEqual(["helper.ts"]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
