// Links prefetch on intent (lib/i18n/intent-link.tsx): a page view fetches no other page ahead; a link
// the visitor points at or focuses is fetched ahead, and following it navigates in place.
import { expect, test, type Request } from "@playwright/test";

const isPage = (r: Request) => r.resourceType() === "fetch" && r.headers()["rsc"] === "1";

test("a page view prefetches nothing; pointing at or focusing a link prefetches it, and the click navigates in place", async ({ page }) => {
  const fetched: string[] = [];
  page.on("request", (r) => {
    if (isPage(r)) fetched.push(new URL(r.url()).pathname);
  });
  await page.goto("/");
  const products = page.locator("main a[href^='/products/']");
  await expect(products.first()).toBeVisible();
  // Next's own idle-time prefetching would have started by now (it did, 30 pages, before intent links).
  await page.waitForTimeout(1_500);
  expect(fetched).toEqual([]);

  const first = products.first();
  const href = (await first.getAttribute("href"))!;
  await first.hover();
  await expect.poll(() => fetched.filter((p) => p === href).length).toBeGreaterThan(0);

  const second = products.nth(1);
  const secondHref = (await second.getAttribute("href"))!;
  expect(secondHref).not.toBe(href);
  await second.focus();
  await expect.poll(() => fetched.includes(secondHref)).toBe(true);

  // A full page load would lose this marker; a client-side navigation keeps it.
  await page.evaluate(() => Object.assign(window, { stayedOnDocument: true }));
  await first.click();
  await expect(page).toHaveURL(href);
  await expect(page.locator("h1")).toBeVisible();
  expect(await page.evaluate(() => (window as { stayedOnDocument?: boolean }).stayedOnDocument)).toBe(true);
});
