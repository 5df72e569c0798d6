import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { axe } from "./support-pages";

const PASSWORD = "deal-pass-123";

async function account(request: APIRequestContext, role: "BUYER" | "SELLER", username: string) {
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: PASSWORD, role, companyName: `Co ${username}` },
  });
  expect(res.status()).toBe(201);
  const login = await request.post("/api/auth/login", { data: { email: username, password: PASSWORD } });
  return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}

async function signIn(page: Page, username: string) {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

async function counter(page: Page, unitPrice: string, message: string) {
  const form = page.getByTestId("counter-form");
  await form.getByLabel(/Unit price/).fill(unitPrice);
  await form.getByLabel(/Message/).fill(message);
  await form.getByRole("button", { name: "Send counter-offer" }).click();
  await expect(page.getByTestId("thread-outcome")).toContainText("Counter-offer sent");
}

const latest = (page: Page) => page.getByTestId("thread-offer").last();

test("buyer and seller negotiate live on one thread and the order is placed at the agreed price", async ({ browser, request }, testInfo) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `ns${tag}`);
  const buyer = await account(request, "BUYER", `nb${tag}`);
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const created = await request.post("/api/products", {
    headers: seller,
    data: { title: `Desk lamp ${tag}`, price: 12.5, currency: "USD", category: cats.categories.find((c) => c.parentId)!.id, moq: 10 },
  });
  const productId = ((await created.json()) as { product: { id: string } }).product.id;
  const inquiry = await request.post("/api/buyer/inquiries", { headers: buyer, data: { productId, message: `Price for 100 lamps? ${tag}` } });
  const inquiryId = ((await inquiry.json()) as { inquiry: { id: string } }).inquiry.id;
  const quoted = await request.post(`/api/seller/inquiries/${inquiryId}/respond`, {
    headers: seller,
    data: { message: "We can do 11.80", quotedPrice: 11.8, quantity: 100 },
  });
  expect(quoted.status()).toBe(201);
  const reply = ((await quoted.json()) as { inquiry: { replies: { offerId: string | null }[] } }).inquiry.replies[0]!;
  expect(reply.offerId).toBeTruthy();
  const first = reply.offerId!;

  const buyerPage = await (await browser.newContext({ bypassCSP: true })).newPage();
  await signIn(buyerPage, `nb${tag}`);
  // The buyer finds the thread from the quoted reply.
  await buyerPage.goto("/buyer");
  await buyerPage.getByTestId("inquiry-reply").getByTestId("negotiate-link").click();
  await expect(buyerPage).toHaveURL(new RegExp(`/offers/${first}$`));
  await expect(latest(buyerPage).getByTestId("offer-unit-price")).toHaveText("$11.80");
  await expect(buyerPage.getByTestId("thread-counterparty")).toContainText(`Co ns${tag}`);

  const sellerPage = await (await browser.newContext()).newPage();
  await signIn(sellerPage, `ns${tag}`);
  await sellerPage.goto(`/offers/${first}`);
  await expect(sellerPage.getByTestId("thread-offer")).toHaveCount(1);
  await expect(sellerPage.getByTestId("offer-answer")).toHaveCount(0);

  // The buyer counters; the seller sees it without reloading and counters back.
  await counter(buyerPage, "10.50", "10.50 and we order today");
  await expect(sellerPage.getByTestId("thread-offer")).toHaveCount(2);
  await expect(latest(sellerPage).getByTestId("offer-unit-price")).toHaveText("$10.50");
  await expect(latest(sellerPage).getByTestId("offer-message")).toHaveText("10.50 and we order today");
  await counter(sellerPage, "11.20", "Meet at 11.20?");

  // The seller's counter appears on the buyer's page without reloading; the buyer counters again.
  await expect(buyerPage.getByTestId("thread-offer")).toHaveCount(3);
  await expect(latest(buyerPage).getByTestId("offer-unit-price")).toHaveText("$11.20");
  await expect(buyerPage.getByTestId("thread-announcer")).toContainText("$11.20");
  await counter(buyerPage, "10.90", "10.90 is our limit");
  await expect(latest(sellerPage).getByTestId("offer-unit-price")).toHaveText("$10.90");
  await counter(sellerPage, "11.00", "11.00, final");
  await expect(latest(buyerPage).getByTestId("offer-unit-price")).toHaveText("$11.00");
  await expect(buyerPage.getByTestId("thread-offer").first()).toHaveAttribute("data-status", "superseded");

  // Accessible and no horizontal overflow at phone width, on the buyer's live page.
  // bypassCSP on the buyer's context: the site's CSP refuses the script axe injects.
  const { violations: found } = await axe(buyerPage).analyze();
  const violations = found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(violations).toEqual([]);
  await buyerPage.setViewportSize({ width: 390, height: 844 });
  // The widest elements, named, so a failure says what overflows.
  const wide = await buyerPage.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > 391 && ![...e.children].some((c) => c.getBoundingClientRect().right > 391))
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).split(" ").slice(0, 3).join(".")}`),
  );
  expect(wide).toEqual([]);
  expect(await buyerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await buyerPage.screenshot({ path: testInfo.outputPath("negotiation-buyer-390.png"), fullPage: true });
  await buyerPage.setViewportSize({ width: 1280, height: 800 });

  // "Order at this price": the dialog states price x quantity = total; the order is at the agreed price.
  await buyerPage.getByRole("button", { name: "Order at this price" }).click();
  const dialog = buyerPage.getByRole("dialog");
  await expect(dialog).toContainText("$11.00 × 100 = $1,100.00");
  await dialog.getByRole("button", { name: "Order at this price" }).click();
  await expect(buyerPage.getByTestId("thread-outcome")).toContainText("Order placed at the agreed price");
  await expect(latest(buyerPage)).toHaveAttribute("data-status", "accepted");
  await expect(latest(sellerPage)).toHaveAttribute("data-status", "accepted");
  await expect(sellerPage.getByTestId("deal-closed")).toBeVisible();
  await sellerPage.screenshot({ path: testInfo.outputPath("negotiation-seller.png"), fullPage: true });

  await buyerPage.getByTestId("order-link").click();
  const buyerOrder = buyerPage.getByTestId("buyer-order").filter({ hasText: `Desk lamp ${tag}` });
  await expect(buyerOrder).toContainText("$1,100.00");
  await sellerPage.goto("/seller/orders");
  const sellerOrder = sellerPage.getByTestId("seller-order").filter({ hasText: `Desk lamp ${tag}` });
  await expect(sellerOrder).toContainText("$1,100.00");
  await expect(sellerOrder).toContainText("100");

  // Both sides list the thread on /offers.
  await sellerPage.goto("/offers");
  await expect(sellerPage.getByTestId("offer-row").filter({ hasText: `Desk lamp ${tag}` })).toHaveCount(1);
});
