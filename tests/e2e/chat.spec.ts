import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

async function account(request: APIRequestContext, role: "BUYER" | "SELLER", username: string) {
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: "chat-pass-123", role, companyName: `Co ${username}` },
  });
  expect(res.status()).toBe(201);
}

async function signIn(page: Page, username: string) {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill("chat-pass-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

test("chat: a buyer writes from the product page, the supplier sees it live, replies, and unread counts update", async ({ browser, request }, testInfo) => {
  const tag = Date.now().toString(36);
  await account(request, "SELLER", `cs${tag}`);
  await account(request, "BUYER", `cb${tag}`);
  const token = ((await (await request.post("/api/auth/login", { data: { email: `cs${tag}`, password: "chat-pass-123" } })).json()) as { token: string }).token;
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const created = await request.post("/api/products", {
    headers: { authorization: `Bearer ${token}` },
    data: { title: `Desk fan ${tag}`, price: 9, currency: "USD", category: cats.categories.find((c) => c.parentId)!.id, moq: 10 },
  });
  const productId = ((await created.json()) as { product: { id: string } }).product.id;

  const seller = await (await browser.newContext()).newPage();
  await signIn(seller, `cs${tag}`);
  await seller.goto("/chat");
  await expect(seller.getByTestId("chat-status")).toHaveAttribute("data-status", "online");

  const buyer = await (await browser.newContext()).newPage();
  await signIn(buyer, `cb${tag}`);
  await buyer.goto(`/products/${productId}`);
  await buyer.getByTestId("chat-supplier").click();
  await expect(buyer.getByTestId("chat-status")).toHaveAttribute("data-status", "online");
  await buyer.locator("#chat-input").fill("Hello, is the 12-inch model in stock?");
  await buyer.getByTestId("chat-form").getByRole("button").click();
  await expect(buyer.getByTestId("message")).toHaveCount(1);

  // Live on the supplier's open page, with an unread badge until opened.
  const conv = seller.getByTestId("conversation").filter({ hasText: `cb${tag}` });
  await expect(conv).toBeVisible();
  await expect(conv.getByTestId("unread")).toBeVisible();
  await conv.click();
  await expect(seller.getByTestId("message")).toHaveText([/12-inch model/]);
  await seller.locator("#chat-input").fill("Yes, 500 units ready to ship.");
  await seller.locator("#chat-input").press("Enter");
  await expect(buyer.getByTestId("message").nth(1)).toContainText("500 units ready");
  await seller.screenshot({ path: testInfo.outputPath("chat-seller.png"), fullPage: true });

  // After a reload (a dropped connection) the history is all there.
  await buyer.reload();
  await buyer.getByTestId("conversation").first().click();
  await expect(buyer.getByTestId("message")).toHaveCount(2);
});
