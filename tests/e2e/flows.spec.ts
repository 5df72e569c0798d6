import { expect, test } from "@playwright/test";
import { account, PASSWORD, product, signIn } from "./support-pages";

// Journeys that used to end in a dead end or in silence (issue 17): each keeps the visitor on course.

test("registering from a product leads back to the product, through sign-in's 'Create an account'", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `fl_s_${tag}`);
  const id = await product(request, seller.auth, `Flow lamp ${tag}`, 7.5);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/ar/products/${id}`);
  await page.getByTestId("contact-sign-in").click();
  await expect(page).toHaveURL(/\/ar\/sign-in\?callbackUrl=/);
  const toRegister = page.getByTestId("auth-switch");
  await expect(toRegister).toHaveAttribute("href", new RegExp(`/ar/register\\?callbackUrl=%2Fproducts%2F${id}`));
  await toRegister.click();
  await expect(page).toHaveURL(new RegExp(`/ar/register\\?callbackUrl=%2Fproducts%2F${id}`));
  // The way back to sign-in keeps it too.
  await expect(page.getByTestId("auth-switch")).toHaveAttribute("href", new RegExp(`/ar/sign-in\\?callbackUrl=%2Fproducts%2F${id}`));
  const username = `fl_b_${tag}`;
  await page.locator("#email").fill(`${username}@example.test`);
  await page.locator("#username").fill(username);
  await page.locator("#password").fill(PASSWORD);
  await page.locator("form button[type=submit]").click();
  await expect(page).toHaveURL(new RegExp(`/ar/products/${id}$`));
  await expect(page.getByTestId("send-inquiry")).toBeVisible();
});

test("a callbackUrl to another site is not carried: registering then starts on the welcome page", async ({ page }) => {
  await page.goto("/sign-in?callbackUrl=//evil.example/x");
  await expect(page.getByTestId("auth-switch")).toHaveAttribute("href", "/register");
  await page.goto("/register?callbackUrl=//evil.example/x");
  const username = `fl_e_${Date.now().toString(36)}`;
  await page.locator("#email").fill(`${username}@example.test`);
  await page.locator("#username").fill(username);
  await page.locator("#password").fill(PASSWORD);
  await page.locator("form button[type=submit]").click();
  await expect(page).toHaveURL(/\/welcome$/);
});

test("approving an agent's held order says what happened and clears the bell", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const guardian = await account(request, "SELLER", `fl_g_${tag}`);
  const seller = await account(request, "SELLER", `fl_p_${tag}`);
  const title = `Held lamp ${tag}`;
  const id = await product(request, seller.auth, title, 4.2);
  const created = await request.post("/api/ai/accounts", { headers: guardian.auth, data: { role: "AI_BUYER", password: "agent-pass-456" } });
  const ai = ((await created.json()) as { account: { aiUserId: string; username: string } }).account;
  await request.patch("/api/ai/accounts", { headers: guardian.auth, data: { aiUserId: ai.aiUserId, mandateCurrency: "USD", orderApprovalThreshold: 0 } });
  const login = await request.post("/api/auth/login", { data: { email: ai.username, password: "agent-pass-456" } });
  const aiAuth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  expect((await request.post("/api/orders", { headers: aiAuth, data: { productId: id, quantity: 3 } })).status()).toBe(201);

  await signIn(page, guardian.username);
  await page.goto("/en/seller/ai-accounts");
  await expect(page.getByTestId("notification-count")).toHaveText("1");
  const held = page.getByTestId("approval").filter({ hasText: title });
  await held.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("approval-done")).toHaveText(`Approved: the order for ${title} is placed and the supplier has been told.`);
  await expect(page.getByTestId("approval-done")).toHaveAttribute("role", "status");
  await expect(held).toHaveCount(0);
  await expect(page.getByTestId("notification-count")).toHaveCount(0);
});

test("a booth is filled from its editor; the preview and the chat name the company, not the username", async ({ page, request, browser }) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `fl_c_${tag}`, `Ningbo Light ${tag}`);
  const first = `Booth lamp A ${tag}`;
  const second = `Booth lamp B ${tag}`;
  await product(request, seller.auth, first, 3);
  await product(request, seller.auth, second, 5);
  const booth = await request.post("/api/booths", { headers: seller.auth, data: { name: `Hall ${tag}` } });
  expect(booth.status()).toBe(201);
  const boothId = ((await booth.json()) as { booth: { id: string } }).booth.id;

  await signIn(page, seller.username);
  await page.goto("/en/seller/booths");
  await page.getByRole("button", { name: new RegExp(`Hall ${tag}`) }).click();
  await expect(page.getByRole("region", { name: "Live preview" })).toContainText(`Ningbo Light ${tag}`);
  const picker = page.getByTestId("booth-products");
  await picker.getByLabel(first).check();
  await picker.getByLabel(second).check();
  await expect(page.getByRole("button", { name: new RegExp(`Hall ${tag}`) })).toContainText("2 products");
  await picker.getByLabel(second).uncheck();
  await expect(page.getByRole("button", { name: new RegExp(`Hall ${tag}`) })).toContainText("1 product");
  const inBooth = (await (await request.get(`/api/booths/${boothId}`, { headers: seller.auth })).json()) as { booth: { products: { title: string }[] } };
  expect(inBooth.booth.products.map((p) => p.title)).toEqual([first]);

  // A buyer writes to the store: the buyer's conversation list names the company.
  const buyer = await account(request, "BUYER", `fl_d_${tag}`);
  expect((await request.post("/api/chat/messages", { headers: buyer.auth, data: { to: seller.username, content: "Hello" } })).status()).toBe(201);
  const buyerPage = await browser.newPage();
  await signIn(buyerPage, buyer.username);
  await buyerPage.goto("/en/chat");
  await expect(buyerPage.getByTestId("conversation-name").first()).toHaveText(`Ningbo Light ${tag}`);
  await buyerPage.close();
});

test("the seller's product editor and the owner's booth page have their own titles", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `fl_t_${tag}`);
  const id = await product(request, seller.auth, `Titled lamp ${tag}`, 2);
  const booth = await request.post("/api/booths", { headers: seller.auth, data: { name: `Titled booth ${tag}` } });
  const boothId = ((await booth.json()) as { booth: { id: string } }).booth.id;
  expect((await request.put("/api/booths", { headers: seller.auth, data: { boothId, isPublished: true } })).status()).toBe(200);
  await signIn(page, seller.username);
  await page.goto(`/en/seller/products/${id}`);
  await expect(page).toHaveTitle(/^Edit product \| /);
  await page.goto(`/en/booths/${boothId}`);
  await expect(page).toHaveTitle(new RegExp(`^Titled booth ${tag} \\| `));
});
