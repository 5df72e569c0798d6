import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { axe } from "./support-pages";

// A buyer posts a requirement, a store quotes it on the board, the buyer compares and accepts:
// the order shows at the quoted price. Then both pages at phone width and under axe.

async function account(request: APIRequestContext, role: "BUYER" | "SELLER", tag: string) {
  const username = `rfq${role === "SELLER" ? "s" : "b"}${tag}`;
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: "trade-pass-1", role, companyName: `Rfq Co ${tag}` },
  });
  expect(res.status()).toBe(201);
  return username;
}

async function signedIn(browser: Browser, username: string, viewport?: { width: number; height: number }): Promise<Page> {
  // bypassCSP: the site's CSP refuses the script axe injects, and axe would then silently not run.
  const page = await (await browser.newContext({ bypassCSP: true, ...(viewport ? { viewport } : {}) })).newPage();
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill("trade-pass-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  return page;
}

async function expectAccessible(page: Page) {
  const { violations } = await axe(page).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`);
  expect(bad).toEqual([]);
}

async function expectNoHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test("a buyer posts a requirement, a store quotes it on the board, the buyer accepts and sees the order at the quoted price", async ({
  browser,
  request,
}, testInfo) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", tag);
  const buyer = await account(request, "BUYER", tag);
  const login = await request.post("/api/auth/login", { data: { email: seller, password: "trade-pass-1" } });
  const token = ((await login.json()) as { token: string }).token;
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const product = await request.post("/api/products", {
    headers: { authorization: `Bearer ${token}` },
    data: { title: `Desk lamp ${tag}`, price: 1.4, currency: "USD", category: cats.categories.find((c) => c.parentId)!.id, moq: 100, keywords: ["lamp"] },
  });
  expect(product.status()).toBe(201);
  const title = `2,000 desk lamps ${tag}`;

  const buyerPage = await signedIn(browser, buyer);
  await buyerPage.goto("/buyer?tab=requirements");
  const form = buyerPage.getByTestId("requirement-form");
  await form.getByLabel("What do you need?").fill(title);
  await form.getByLabel("Quantity wanted (optional)").fill("2000");
  await form.locator('input[name="budget"]').fill("3000");
  await form.locator('select[name="currency"]').selectOption("USD");
  await form.getByRole("button", { name: "Post" }).click();
  await expect(buyerPage.getByTestId("buyer-requirement").filter({ hasText: title })).toBeVisible();

  const sellerPage = await signedIn(browser, seller);
  await sellerPage.goto("/seller");
  await sellerPage.getByRole("link", { name: "Requirements board" }).click();
  const row = sellerPage.getByTestId("board-requirement").filter({ hasText: title });
  await expect(row).toContainText("2,000");
  await expect(row).toContainText("$3,000.00");
  await row.getByRole("button", { name: "Send a quote" }).click();
  const quote = row.getByTestId("quote-form");
  await expect(quote.getByLabel("Quantity")).toHaveValue("2000");
  // The form refuses what the server would, before sending.
  await quote.getByLabel("Unit price").fill("1.055");
  await quote.getByRole("button", { name: "Send quote" }).click();
  await expect(quote.getByText("at most two decimals")).toBeVisible();
  await quote.getByLabel("Unit price").fill("1.05");
  await quote.getByLabel("Product of your store (optional)").selectOption({ label: `Desk lamp ${tag}` });
  await quote.getByLabel("Message to the buyer").fill("CE certified, 20 days.");
  await quote.getByRole("button", { name: "Send quote" }).click();
  await expect(row.getByTestId("own-offer")).toContainText("$1.05 × 2,000");
  await expect(row.getByTestId("offer-status")).toHaveText("Open");
  await expectAccessible(sellerPage);
  await sellerPage.screenshot({ path: testInfo.outputPath("requirements-board.png"), fullPage: true });

  await buyerPage.reload();
  await buyerPage.getByTestId("buyer-requirement").filter({ hasText: title }).getByRole("link", { name: "View quotes" }).click();
  const quoteRow = buyerPage.getByTestId("quote-row").filter({ hasText: `Rfq Co ${tag}` });
  await expect(quoteRow).toContainText("$1.05");
  await expect(quoteRow).toContainText("$2,100.00");
  await expectAccessible(buyerPage);
  await quoteRow.getByRole("button", { name: "Accept" }).click();
  const dialog = buyerPage.getByRole("dialog");
  await expect(dialog).toContainText("$1.05 × 2,000 = $2,100.00");
  await dialog.getByRole("button", { name: "Accept" }).click();
  await expect(buyerPage.getByTestId("accept-result")).toContainText("Order placed: $2,100.00");
  await expect(quoteRow.getByTestId("offer-status")).toHaveText("Accepted");
  await buyerPage.screenshot({ path: testInfo.outputPath("quote-comparison.png"), fullPage: true });
  const comparisonUrl = buyerPage.url();
  await buyerPage.getByRole("link", { name: "View my orders" }).click();
  await expect(buyerPage.getByTestId("buyer-order").filter({ hasText: `Desk lamp ${tag}` })).toContainText("$2,100.00");

  await sellerPage.goto("/seller/orders");
  await expect(sellerPage.getByTestId("seller-order").filter({ hasText: `Desk lamp ${tag}` })).toContainText("2,100");

  // Phone width: nothing overflows sideways on either page.
  const phone = { width: 390, height: 844 };
  const sellerPhone = await signedIn(browser, seller, phone);
  await sellerPhone.goto("/seller/requirements");
  await expect(sellerPhone.getByTestId("board-count")).toBeVisible();
  await expectNoHorizontalOverflow(sellerPhone);
  // Right to left: the Arabic board lays out mirrored and still fits.
  await sellerPhone.goto("/ar/seller/requirements");
  await expect(sellerPhone.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(sellerPhone.getByTestId("board-requirement").filter({ hasText: title })).toContainText("عرضك");
  await expectNoHorizontalOverflow(sellerPhone);
  await sellerPhone.screenshot({ path: testInfo.outputPath("requirements-board-ar-390.png"), fullPage: true });
  const buyerPhone = await signedIn(browser, buyer, phone);
  await buyerPhone.goto(comparisonUrl);
  await expect(buyerPhone.getByTestId("quote-card").first()).toBeVisible();
  await expectNoHorizontalOverflow(buyerPhone);
  await buyerPhone.screenshot({ path: testInfo.outputPath("quote-comparison-390.png"), fullPage: true });
});
