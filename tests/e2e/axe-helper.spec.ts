// The axe helper the accessibility checks share (support-pages.ts) evaluates axe once per document and
// collects violations only: it still finds what it should, on a second run in the same document and
// after a navigation to another one.
import { expect, test } from "@playwright/test";
import { axe } from "./support-pages";

test("the axe helper finds a contrast and a label violation, twice in one document and after a navigation", async ({ page }) => {
  for (const path of ["/", "/search"]) {
    await page.goto(path);
    expect((await axe(page).analyze()).violations.map((v) => v.id)).toEqual([]);
    await page.evaluate(() => {
      const main = document.querySelector("main")!;
      const text = Object.assign(document.createElement("p"), { id: "faint", textContent: "low contrast text" });
      text.style.color = "#eee";
      text.style.background = "#fff";
      main.append(text, Object.assign(document.createElement("input"), { id: "unlabelled" }));
    });
    const found = (await axe(page).analyze()).violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(" "))]);
    expect(found.sort()).toEqual([
      ["color-contrast", ["#faint"]],
      ["label", ["#unlabelled"]],
    ]);
  }
});
