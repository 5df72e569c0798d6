import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

async function account(request: APIRequestContext, role: "BUYER" | "SELLER", tag: string) {
  const username = `${role === "SELLER" ? "s" : "b"}${tag}`;
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: "trade-pass-1", role, companyName: `Co ${tag}` },
  });
  expect(res.status()).toBe(201);
  return username;
}

async function signIn(page: Page, username: string) {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill("trade-pass-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

test("a buyer inquires from the product page, the seller replies with a quote, the buyer orders", async ({ browser, request }, testInfo) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", tag);
  const buyer = await account(request, "BUYER", tag);
  const login = await request.post("/api/auth/login", { data: { email: seller, password: "trade-pass-1" } });
  const token = ((await login.json()) as { token: string }).token;
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const created = await request.post("/api/products", {
    headers: { authorization: `Bearer ${token}` },
    data: { title: `Cotton tote ${tag}`, price: 1.2, currency: "USD", category: cats.categories.find((c) => c.parentId)!.id, moq: 500, keywords: ["tote"] },
  });
  const productId = ((await created.json()) as { product: { id: string } }).product.id;

  const buyerPage = await (await browser.newContext()).newPage();
  await signIn(buyerPage, buyer);
  await buyerPage.goto(`/products/${productId}`);
  await buyerPage.getByTestId("send-inquiry").click();
  await buyerPage.getByTestId("inquiry-form").locator("textarea").fill("Price for 2,000 pcs with our logo?");
  await buyerPage.getByTestId("inquiry-form").getByRole("button", { name: "Send inquiry" }).click();
  await expect(buyerPage.getByTestId("trade-done")).toBeVisible();

  const sellerPage = await (await browser.newContext()).newPage();
  await signIn(sellerPage, seller);
  await sellerPage.goto("/seller/inquiries");
  const inquiry = sellerPage.getByTestId("seller-inquiry").filter({ hasText: "2,000 pcs" });
  await expect(inquiry).toBeVisible();
  await inquiry.locator("textarea").fill("We can do 1.05 USD with your logo.");
  await inquiry.locator('input[name="quotedPrice"]').fill("1.05");
  await inquiry.getByRole("button", { name: "Send reply" }).click();
  await sellerPage.getByRole("button", { name: "Replied" }).click();
  await expect(sellerPage.getByTestId("seller-inquiry").filter({ hasText: "1.05" })).toBeVisible();
  await sellerPage.screenshot({ path: testInfo.outputPath("seller-inquiries.png"), fullPage: true });

  await buyerPage.goto("/buyer");
  await expect(buyerPage.getByTestId("inquiry-reply")).toContainText("We can do 1.05 USD");
  await buyerPage.screenshot({ path: testInfo.outputPath("buyer-inquiries.png"), fullPage: true });

  await buyerPage.goto(`/orders/new?productId=${productId}`);
  await expect(buyerPage.locator('input[name="quantity"]')).toHaveValue("500");
  await buyerPage.locator('input[name="quantity"]').fill("2000");
  await buyerPage.getByRole("button", { name: "Place order" }).click();
  await expect(buyerPage.getByTestId("trade-done")).toBeVisible();

  await sellerPage.goto("/seller/orders");
  const order = sellerPage.getByTestId("seller-order").filter({ hasText: `Cotton tote ${tag}` });
  await order.getByRole("button", { name: "Confirm" }).click();
  await expect(order.getByTestId("status")).toHaveText("Confirmed");
  await sellerPage.goto("/seller");
  await expect(sellerPage.getByTestId("chart")).toHaveCount(3);
  await sellerPage.screenshot({ path: testInfo.outputPath("seller-dashboard.png"), fullPage: true });
});
