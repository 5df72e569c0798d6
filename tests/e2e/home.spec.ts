import { expect, test, type Page } from "@playwright/test";
import { axe } from "./support-pages";

// The home page of the demo fair (issue #17): a search field one can see and read, featured
// products whose pictures really load, the newest suppliers and a way to post a requirement.

async function checkHome(page: Page, path: string) {
  await page.goto(path);
  const search = page.locator("#home-search");
  await expect(search).toBeVisible();
  // Filled, so axe checks the contrast of typed text as well as of the placeholder.
  await search.fill("LED desk lamp");
  const { violations } = await axe(page).include("[role=search]").withRules(["color-contrast", "label"]).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  const background = await search.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(background).toBe("rgb(255, 255, 255)");

  const images = page.getByTestId("featured-products").locator("img");
  await expect(images.nth(5)).toBeAttached();
  for (const img of await images.all()) {
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  await expect(page.getByTestId("supplier-card").nth(5)).toBeVisible();
  await expect(page.getByTestId("post-requirement-cta")).toBeVisible();
}

test("the home page has a readable search field, featured products with pictures and the newest suppliers", async ({ page }) => {
  await checkHome(page, "/");
  await expect(page.getByLabel("Search products")).toBeVisible();
  // The page's own content (the header is checked by its own tests).
  const { violations } = await axe(page).include("main").analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await page.getByTestId("supplier-card").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/stores\/[0-9a-f-]{36}$/);
});

test("the home page works in Arabic on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await checkHome(page, "/ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  // Every card of the page's own sections fits the phone's width.
  const widest = await page.locator("main li").evaluateAll((els) => Math.max(...els.map((el) => el.getBoundingClientRect().right)));
  expect(widest).toBeLessThanOrEqual(390);
});
