import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { around, fill } from "@/components/ui/sentence";

const html = (node: ReturnType<typeof fill>) => renderToStaticMarkup(createElement("p", null, node));

describe("a translated sentence with elements in its slots", () => {
  it("puts each element where its argument was, the words around it untouched", () => {
    const out = fill((m) => `The total, ${m.total}, exceeds your threshold of ${m.limit}.`, {
      total: createElement("bdi", null, "$1,250.00"),
      limit: createElement("bdi", null, "$50.00"),
    });
    expect(html(out)).toBe("<p>The total, <bdi>$1,250.00</bdi>, exceeds your threshold of <bdi>$50.00</bdi>.</p>");
  });

  it("follows the translation's word order and repeats an argument used twice", () => {
    const out = fill((m) => `${m.b} قبل ${m.a} و${m.b}`, { a: "A", b: createElement("bdi", { dir: "ltr" }, "B") });
    expect(html(out)).toBe('<p><bdi dir="ltr">B</bdi> قبل A و<bdi dir="ltr">B</bdi></p>');
  });

  it("splits a sentence around one argument, whichever side it is on", () => {
    expect(around((c) => `by ${c}`)).toEqual(["by ", ""]);
    expect(around((c) => `${c} द्वारा`)).toEqual(["", " द्वारा"]);
    expect(around(() => "no slot")).toEqual(["no slot", ""]);
  });
});
