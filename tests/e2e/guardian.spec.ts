import { expect, test, type Page } from "@playwright/test";

const password = "guardian-pass-123";
const aiPassword = "agent-pass-456";

async function signIn(page: Page, identifier: string, secret: string) {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail or username").fill(identifier);
  await page.getByLabel("Password").fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function sessionCookie(page: Page) {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === "next-auth.session-token")!.value;
}

test("a guardian creates AI agents, controls them, and the one-browser rule holds", async ({ page, browser }, testInfo) => {
  const username = `g${Date.now().toString(36)}`;
  const shot = async (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });

  // Register as a seller (a store is needed for the AI seller).
  await page.goto("/register");
  await page.getByLabel("Sell: open a store and exhibit").check();
  await page.getByLabel("E-mail").fill(`${username}@example.test`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Company name").fill("Guardian Trading Ltd");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(username);

  // Both AI accounts on the Chinese AI registration page; the username is shown before submitting.
  await page.goto("/zh/ai-register");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await expect(page.getByTestId("ai-username-preview")).toHaveText(`${username}_AI_BUYER`);
  await shot("ai-register-zh");
  for (const role of ["AI_BUYER", "AI_SELLER"]) {
    await page.locator(`input[name=role][value=${role}]`).check();
    await expect(page.getByTestId("ai-username-preview")).toHaveText(`${username}_${role}`);
    await page.locator("#password").fill(aiPassword);
    await page.locator("#confirm").fill(aiPassword);
    await page.locator("form button[type=submit]").click();
    await expect(page.getByTestId("ai-created")).toContainText(`${username}_${role}`);
    await page.getByTestId("ai-created").getByRole("button").click();
  }

  // Switch a permission on the AI accounts page; the API sees the change. (/en/... switches the
  // remembered locale back to English: next-intl keeps the last one in a cookie.)
  await page.goto("/en/seller/ai-accounts");
  await expect(page).toHaveURL(/\/seller\/ai-accounts$/);
  const buyerCard = page.getByTestId("ai-account-card").filter({ hasText: `${username}_AI_BUYER` });
  const deleteSwitch = buyerCard.getByRole("switch", { name: "Delete products" });
  await expect(deleteSwitch).toHaveAttribute("aria-checked", "false");
  await deleteSwitch.click();
  await expect(deleteSwitch).toHaveAttribute("aria-checked", "true");
  const accounts = (await (await page.request.get("/api/ai/accounts")).json()) as { accounts: { username: string; permissions: Record<string, boolean> }[] };
  expect(accounts.accounts.find((a) => a.username === `${username}_AI_BUYER`)!.permissions["product.delete"]).toBe(true);
  await expect(page.getByTestId("audit-log").first()).toBeVisible();
  await shot("ai-accounts-en");
  await page.goto("/ar/seller/ai-accounts");
  await expect(page.getByTestId("ai-account-card").first()).toBeVisible();
  await shot("ai-accounts-ar");

  // The AI buyer signs in in a fresh browser: AI badge, lands on the home page.
  const agentContext = await browser.newContext();
  const agent = await agentContext.newPage();
  await agent.goto("/");
  await signIn(agent, `${username}_AI_BUYER`, aiPassword);
  await expect(agent.getByTestId("ai-mode-badge")).toBeVisible();
  await expect(agent).toHaveURL(/\/$/);
  const buyerCookie = await sessionCookie(agent);

  // The AI seller signs in in the same browser: lands on /seller, the AI buyer's session is gone.
  await signIn(agent, `${username}_AI_SELLER`, aiPassword);
  await expect(agent).toHaveURL(/\/seller$/);
  await expect(agent.getByTestId("ai-mode-badge")).toBeVisible();
  const base = testInfo.project.use.baseURL!;
  const old = await fetch(`${base}/api/auth/me`, { headers: { cookie: `next-auth.session-token=${buyerCookie}` } });
  expect(((await old.json()) as { user: unknown }).user).toBeNull();
  const current = await fetch(`${base}/api/auth/me`, { headers: { cookie: `next-auth.session-token=${await sessionCookie(agent)}` } });
  expect(((await current.json()) as { user: { role: string } }).user.role).toBe("AI_SELLER");

  // The guardian sees the replacement in the AI buyer's audit log.
  const buyerId = ((await (await page.request.get("/api/ai/accounts")).json()) as { accounts: { aiUserId: string; username: string }[] }).accounts.find(
    (a) => a.username === `${username}_AI_BUYER`,
  )!.aiUserId;
  const logs = (await (await page.request.get(`/api/ai/audit-logs?aiUserId=${buyerId}&action=auth.session_replaced`)).json()) as { total: number };
  expect(logs.total).toBe(1);

  // The guardian sets a new password for the AI buyer on the page: its token ends, the new password signs in.
  const buyerLogin = (secret: string) => page.request.post("/api/auth/login", { data: { email: `${username}_AI_BUYER`, password: secret } });
  const buyerToken = ((await (await buyerLogin(aiPassword)).json()) as { token: string }).token;
  await page.goto("/en/seller/ai-accounts");
  const buyerPanel = page.getByTestId("ai-account-card").filter({ hasText: `${username}_AI_BUYER` });
  await buyerPanel.getByRole("button", { name: "Set a new password" }).click();
  await buyerPanel.getByLabel("New password", { exact: true }).fill("short");
  await buyerPanel.getByRole("button", { name: "Set password" }).click();
  await expect(buyerPanel.getByText("The password must be 8 to 128 characters long.")).toBeVisible();
  await shot("ai-set-password-en");
  await buyerPanel.getByLabel("New password", { exact: true }).fill("agent-reset-789");
  await buyerPanel.getByLabel("Repeat the new password").fill("agent-reset-789");
  await buyerPanel.getByRole("button", { name: "Set password" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Set password" }).click();
  await expect(buyerPanel.getByRole("status")).toContainText(`New password set for ${username}_AI_BUYER`);
  await shot("ai-set-password-done-en");
  expect((await page.request.get("/api/auth/me", { headers: { authorization: `Bearer ${buyerToken}` } })).status()).toBe(401);
  expect((await buyerLogin(aiPassword)).status()).toBe(401);
  expect((await buyerLogin("agent-reset-789")).status()).toBe(200);

  // The guardian disables the AI seller on the page; its token is refused on the next call.
  const tokenRes = await page.request.post("/api/auth/login", { data: { email: `${username}_AI_SELLER`, password: aiPassword } });
  const { token } = (await tokenRes.json()) as { token: string };
  expect((await page.request.get("/api/auth/me", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
  await page.goto("/en/seller/ai-accounts");
  const sellerCard = page.getByTestId("ai-account-card").filter({ hasText: `${username}_AI_SELLER` });
  // Once in ~50 runs the first click focused the button but no dialog opened (not reproduced in 11
  // runs since, loaded or not; noted on #12): a second click, after 5 s without the dialog, still
  // requires the dialog to open and confirm the action.
  await expect(async () => {
    await sellerCard.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByRole("dialog")).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
  await expect(sellerCard.getByTestId("ai-status")).toHaveText("Disabled");
  expect((await page.request.get("/api/auth/me", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  await agent.reload();
  await expect(agent.getByTestId("sign-in-required")).toBeVisible();
  await expect(agent.getByTestId("ai-mode-badge")).toHaveCount(0);
  await agentContext.close();
});

test("the AI privacy policy and the seller pages render in zh and ar", async ({ page }, testInfo) => {
  for (const locale of ["zh", "ar"]) {
    await page.goto(`/${locale}/legal/ai-privacy-policy`);
    await expect(page.locator("h1")).not.toHaveText("AI agent privacy policy");
    await expect(page.locator("article h2")).toHaveCount(7);
    await page.screenshot({ path: testInfo.outputPath(`ai-privacy-policy-${locale}.png`), fullPage: true });
  }
  await page.goto("/en/legal/ai-privacy-policy");
  await expect(page).toHaveURL(/\/legal\/ai-privacy-policy$/);
  await expect(page.locator("h1")).toHaveText("AI agent privacy policy");
});
