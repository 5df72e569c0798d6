import { expect, test, type APIRequestContext } from "@playwright/test";

// Stores for buyers (issue #17): opening a store from the start page, the directory, a store's pages and "Contact supplier".
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");

async function token(request: APIRequestContext, email: string, password: string) {
  const res = await request.post("/api/auth/login", { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function account(request: APIRequestContext, role: "BUYER" | "SELLER", username: string, companyName?: string) {
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: "stores-pass-1", role, companyName },
  });
  expect(res.status()).toBe(201);
  return { authorization: `Bearer ${await token(request, username, "stores-pass-1")}` };
}

test("a buyer registers, lands on the start page, opens a store with a logo and finds it in the supplier list", async ({ page }) => {
  const tag = Date.now().toString(36);
  const username = `opener_${tag}`;
  const company = `Nairobi Roasters ${tag}`;
  await page.goto("/register");
  await page.getByLabel("E-mail").fill(`${username}@example.test`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("stores-pass-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByTestId("step-openStore")).toHaveAttribute("data-done", "false");
  await expect(page.getByTestId("step-postRequirement")).toHaveAttribute("data-done", "false");

  await page.getByRole("link", { name: "Open your store with your logo" }).click();
  await expect(page).toHaveURL(/\/seller$/);
  const form = page.getByTestId("open-store-form");
  await form.getByRole("button", { name: "Open my store" }).click();
  await expect(form.getByText("Enter your company name.")).toBeVisible();
  await form.getByLabel("Company name").fill(company);
  await form.getByLabel("Country").fill("Kenya");
  await form.getByLabel("Company logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await form.getByLabel("About your company").fill("Single-origin coffee, roasted to order.");
  await form.getByRole("button", { name: "Open my store" }).click();
  await expect(page.getByRole("link", { name: "Store settings" })).toBeVisible();
  await expect(page.getByTestId("open-store-form")).toHaveCount(0);

  await page.goto("/welcome");
  await expect(page.getByTestId("step-openStore")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("step-addProduct")).toHaveAttribute("data-done", "false");

  await page.goto(`/stores?q=${encodeURIComponent(company)}`);
  const card = page.getByTestId("store-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(company);
  await expect(card).toContainText("Kenya");
  await expect(card).toContainText("0 products");
  await expect(card.locator("img")).toHaveAttribute("src", /^\/uploads\//);
  await card.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(company);
  await expect(page.getByTestId("store-logo")).toBeVisible();
  await expect(page.getByTestId("store-product-count")).toHaveText("0 products");
  // The owner is not offered to write to themself.
  await page.getByTestId("contact-supplier").click();
  await expect(page.getByText("This is your store: buyers' messages reach you in Chat.")).toBeVisible();
  await expect(page.getByTestId("contact-form")).toHaveCount(0);
});

test("a visitor pages through a store of 30 products and contacts the supplier after signing in", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const owner = await account(request, "SELLER", `pager_${tag}`, `Pager Lighting ${tag}`);
  const categories = ((await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] }).categories;
  const leaf = categories.find((c) => c.parentId)!;
  let storeId = "";
  for (let i = 1; i <= 30; i++) {
    const res = await request.post("/api/products", {
      headers: owner,
      data: { title: `Lamp ${String(i).padStart(2, "0")} ${tag}`, price: 10 + i, currency: "USD", category: leaf.id, moq: 1 },
    });
    expect(res.status()).toBe(201);
    storeId = ((await res.json()) as { product: { seller: { id: string } } }).product.seller.id;
  }
  await account(request, "BUYER", `asker_${tag}`);

  await page.goto(`/stores/${storeId}`);
  await expect(page.getByTestId("store-product-count")).toHaveText("30 products");
  await expect(page.getByTestId("product-card")).toHaveCount(24);
  await expect(page.getByTestId("pager")).toContainText("Page 1 of 2");
  await page.getByTestId("pager").getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(new RegExp(`/stores/${storeId}\\?page=2$`));
  await expect(page.getByTestId("product-card")).toHaveCount(6);
  await expect(page.getByTestId("pager")).toContainText("Page 2 of 2");

  // Signed out: "Contact supplier" asks to sign in and comes back to the store.
  await page.getByTestId("contact-supplier").click();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await page.getByLabel("E-mail or username").fill(`asker_${tag}`);
  await page.getByLabel("Password").fill("stores-pass-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/stores/${storeId}\\?page=2$`));
  await page.getByTestId("contact-supplier").click();
  const message = `Do you ship to Lagos? ${tag}`;
  await page.getByLabel(`Your message to Pager Lighting ${tag}`).fill(message);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(/\/chat\?conversation=/);

  // The message reached the store owner's chat.
  const inbox = (await (await request.get("/api/chat/conversations?limit=100", { headers: owner })).json()) as {
    conversations: { otherUser: { username: string }; lastMessage: { content: string } | null }[];
  };
  expect(inbox.conversations.find((c) => c.otherUser.username === `asker_${tag}`)?.lastMessage?.content).toBe(message);
});
