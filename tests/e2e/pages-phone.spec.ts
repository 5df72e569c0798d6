import { expect, test } from "@playwright/test";
import { account, expectInsideViewport, expectNoHorizontalScroll, product, signIn } from "./support-pages";

const PHONE = { width: 390, height: 844 };

test("no request of a page load fails: favicon, icons and manifest are served", async ({ page }) => {
  const failed: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto("/ar");
  await page.waitForLoadState("networkidle");
  expect((await page.request.get("/favicon.ico")).status()).toBe(200);
  expect(failed).toEqual([]);
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(1);
});

test("search on a phone shows results first and the filters behind a button; desktop unchanged", async ({ browser }) => {
  const phone = await browser.newPage({ viewport: PHONE });
  await phone.goto("/ar/search");
  const toggle = phone.getByTestId("filters-toggle");
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(phone.getByTestId("filters-panel")).toBeHidden();
  const firstCard = phone.getByTestId("product-card").first();
  expect((await firstCard.boundingBox())!.y).toBeLessThan(PHONE.height);
  await expectNoHorizontalScroll(phone);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(phone.getByTestId("filters-panel").locator('form[role="search"]')).toBeVisible();
  await phone.close();

  const desktop = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await desktop.goto("/search");
  await expect(desktop.getByTestId("filters-toggle")).toBeHidden();
  await expect(desktop.getByTestId("filters-panel").locator('form[role="search"]')).toBeVisible();
  await desktop.close();
});

test("on a phone the chat's Send button and the seller's order actions stay on screen", async ({ browser, request }) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `ph_s_${tag}`);
  const buyer = await account(request, "BUYER", `ph_b_${tag}`);
  const id = await product(request, seller.auth, `Phone case ${tag}`, 4.2);
  expect((await request.post("/api/orders", { headers: buyer.auth, data: { productId: id, quantity: 3 } })).status()).toBe(201);

  const buyerPage = await browser.newPage({ viewport: PHONE });
  await signIn(buyerPage, buyer.username);
  await buyerPage.goto(`/ar/chat?productId=${id}`);
  const send = buyerPage.getByTestId("chat-form").getByRole("button");
  await expect(send).toBeVisible();
  await expectInsideViewport(buyerPage, send);
  await buyerPage.locator("#chat-input").fill(`hello ${tag}`);
  await send.click();
  await expect(buyerPage.getByTestId("message-text").last()).toHaveText(`hello ${tag}`);
  await expectNoHorizontalScroll(buyerPage);
  await buyerPage.close();

  const sellerPage = await browser.newPage({ viewport: PHONE });
  await signIn(sellerPage, seller.username);
  await sellerPage.goto("/ar/seller/orders");
  const row = sellerPage.getByTestId("seller-order").first();
  await expect(row.getByTestId("order-number")).toHaveText(/^#[0-9A-F]{8}$/);
  await expect(row.getByTestId("contact-buyer")).toHaveAttribute("href", /\/ar\/chat\?to=/);
  const intlAr = await sellerPage.evaluate(() => new Intl.NumberFormat("ar", { style: "currency", currency: "USD" }).format(12.6));
  await expect(row.getByTestId("price").last()).toHaveText(intlAr);
  const confirm = row.getByTestId("order-actions").getByRole("button").first();
  await expect(confirm).toBeVisible();
  await expectInsideViewport(sellerPage, confirm);
  await expectNoHorizontalScroll(sellerPage);
  await sellerPage.goto("/ar/seller/products");
  await expectInsideViewport(sellerPage, sellerPage.getByTestId("row-actions").first().getByRole("button").first());
  await sellerPage.close();
});

test("the guardian's audit view reads as actions, targets and outcomes; the raw line is behind a disclosure; no next-intl error", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const guardian = await account(request, "SELLER", `au_g_${tag}`);
  const seller = await account(request, "SELLER", `au_s_${tag}`);
  const id = await product(request, seller.auth, `Audit lamp ${tag}`, 4.2);
  const created = await request.post("/api/ai/accounts", { headers: guardian.auth, data: { role: "AI_BUYER", password: "agent-pass-456" } });
  expect(created.status()).toBe(201);
  const ai = ((await created.json()) as { account: { aiUserId: string; username: string } }).account;
  // Every order waits for the guardian: the approvals queue shows its expiry as a relative time.
  const mandate = await request.patch("/api/ai/accounts", {
    headers: guardian.auth,
    data: { aiUserId: ai.aiUserId, mandateCurrency: "USD", orderApprovalThreshold: 0 },
  });
  expect(mandate.status()).toBe(200);
  const login = await request.post("/api/auth/login", { data: { email: ai.username, password: "agent-pass-456" } });
  const aiAuth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  expect((await request.get("/api/orders", { headers: aiAuth })).status()).toBe(200);
  expect((await request.post("/api/orders", { headers: aiAuth, data: { productId: id, quantity: 3 } })).status()).toBeLessThan(300);

  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await signIn(page, guardian.username);
  await page.goto("/seller/ai-accounts");
  const log = page.getByTestId("audit-log").first();
  await expect(log.getByTestId("audit-action").filter({ hasText: "Signed in" }).first()).toBeVisible();
  const viewRow = log.getByTestId("audit-row").filter({ has: page.getByTestId("audit-action").filter({ hasText: "View orders" }) });
  await expect(viewRow.first()).toContainText("/orders");
  await expect(viewRow.first()).toContainText("Succeeded");
  const raw = viewRow.first().locator("details");
  await expect(raw.locator("p")).toBeHidden();
  await raw.locator("summary").click();
  await expect(raw.locator("p")).toContainText("GET /api/orders -> 200");
  await expect(page.getByTestId("approval").first()).toBeVisible();
  expect(errors.filter((e) => /ENVIRONMENT_FALLBACK|IntlError|MISSING_MESSAGE/.test(e))).toEqual([]);
});
