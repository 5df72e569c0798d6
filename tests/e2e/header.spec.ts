// The page header (issue #17): the phone menu button, the account menu by keyboard, no horizontal
// scroll at 390 px in en, ja and ar, nav labels whole in Japanese, and a 429 said on the register
// form of a server whose anonymous tier is tiny (browsing itself spends none of it: contract 9.5).
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startServer, type RunningServer } from "../support/server";

const PHONE = { width: 390, height: 844 };
const PASSWORD = "header-pass-1";

async function account(request: APIRequestContext, role: "BUYER" | "SELLER") {
  const username = `${role === "SELLER" ? "hs" : "hb"}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: PASSWORD, role, ...(role === "SELLER" ? { companyName: `Co ${username}` } : {}) },
  });
  expect(res.status()).toBe(201);
  return username;
}

async function signIn(page: Page, username: string) {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("on a phone the navigation opens from a menu button, and closes on Escape and after following a link", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/en/exhibitions");
  const button = page.getByRole("button", { name: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toHaveAttribute("aria-controls", "site-menu");
  await expect(nav).toBeHidden();
  await button.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await expect(nav).toBeVisible();
  await expect(page.getByTestId("language-switcher")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(button).toBeFocused();
  await button.click();
  await nav.getByRole("link", { name: "Shoutouts" }).click();
  await expect(page).toHaveURL(/\/shoutouts$/);
  await expect(nav).toBeHidden();
  expect(await overflow(page)).toBe(0);
});

test("the desktop header shows the navigation without a menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/en/exhibitions");
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
  await expect(page.getByTestId("menu-button")).toBeHidden();
});

for (const locale of ["en", "ja", "ar"] as const) {
  test(`no horizontal scroll at 390 px in ${locale}, signed out and signed in, with the menu open`, async ({ page, request }) => {
    await page.setViewportSize(PHONE);
    await page.goto(`/${locale}/shoutouts`);
    await expect(page.getByTestId("menu-button")).toBeVisible();
    expect(await overflow(page)).toBe(0);
    await page.getByTestId("menu-button").click();
    expect(await overflow(page)).toBe(0);
    if (locale === "ar") {
      // Mirrored: the site name on the right, the menu button on the left.
      const brand = (await page.locator("header a").first().boundingBox())!;
      const menu = (await page.getByTestId("menu-button").boundingBox())!;
      expect(menu.x).toBeLessThan(brand.x);
    }
    await signIn(page, await account(request, "SELLER"));
    await page.goto(`/${locale}/shoutouts`);
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    expect(await overflow(page)).toBe(0);
  });
}

test("Japanese nav labels wrap between links, never inside a word", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto("/ja/exhibitions");
  const lines = await page
    .getByRole("navigation")
    .first()
    .locator("a")
    .evaluateAll((links) =>
      links.map((a) => {
        const range = document.createRange();
        range.selectNodeContents(a);
        // One line box per label: its text rectangles share one top.
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }),
    );
  expect(lines.length).toBeGreaterThan(3);
  expect(lines.every((n) => n === 1)).toBe(true);
});

test("the account menu works by keyboard and offers a buyer a store, not a seller dashboard", async ({ page, request }) => {
  const buyer = await account(request, "BUYER");
  await signIn(page, buyer);
  const button = page.getByTestId("signed-in-as");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  const menu = page.locator("#account-menu");
  await expect(menu.getByTestId("account-summary")).toContainText(buyer);
  await expect(menu.getByTestId("account-summary")).toContainText("Buyer");
  await expect(menu.getByRole("link", { name: "Open your store" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Seller dashboard" })).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("link", { name: "My purchases" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("link").nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(menu.getByRole("button", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  // ArrowDown on the button opens it at the first item.
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("link", { name: "My purchases" })).toBeFocused();
  await page.keyboard.press("Escape");

  // A seller gets the dashboard.
  await page.getByTestId("signed-in-as").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await signIn(page, await account(request, "SELLER"));
  await page.getByTestId("signed-in-as").click();
  await expect(page.locator("#account-menu").getByRole("link", { name: "Seller dashboard" })).toBeVisible();
  await expect(page.locator("#account-menu").getByTestId("account-summary")).toContainText("Seller");
});

test.describe("a server with a tiny anonymous tier", () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    server = await startServer({ RATE_LIMIT_ANON_PER_HOUR: "3", DATABASE_URL: "" }, { timeoutMs: 200_000 });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("browsing spends none of it, and the register form says when to try again after a 429", async ({ page, request }) => {
    // Twenty page views: more than the whole tier, if the header's requests were counted.
    for (let i = 0; i < 10; i++) {
      await page.goto(`${server.url}/shoutouts`);
      await page.goto(`${server.url}/exhibitions`);
    }
    await page.goto(`${server.url}/register`);
    // The tier is still whole: an API client at this address spends it now.
    const spent = [];
    for (let i = 0; i < 4; i++) spent.push((await request.get(`${server.url}/api/categories`)).status());
    expect(spent).toEqual([200, 200, 200, 429]);
    await page.getByLabel("E-mail").fill("late@example.test");
    await page.getByLabel("Username").fill(`late${Date.now().toString(36)}`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.locator("form [role=alert]")).toHaveText(/^Too many requests\. Try again in \d+ minutes?\.$/);
    await expect(page.getByRole("button", { name: "Create account" })).toBeEnabled();
  });
});
