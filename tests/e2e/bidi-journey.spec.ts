import { expect, test, type APIRequestContext, type Locator } from "@playwright/test";
import { account, expectInsideViewport, expectNoHorizontalScroll, product, signIn } from "./support-pages";

// What a real Arabic journey on a phone found: prices as "$US 1,250.00", trailing periods jumping to the
// front of Latin names, supplier names cut at their start, the sticky actions column over the price.
const PHONE = { width: 390, height: 844 };

const intl = (locale: string, amount: number, currency = "USD") => new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount);

/** Left edges of the first and the last character of an element's text, as laid out. */
async function edges(el: Locator) {
  return el.evaluate((node) => {
    const text = [...node.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
    const s = text.textContent!;
    const at = (i: number) => {
      const r = document.createRange();
      r.setStart(text, i);
      r.setEnd(text, i + 1);
      return r.getBoundingClientRect();
    };
    const first = s.search(/\S/);
    const last = s.trimEnd().length - 1;
    return { first: at(first), last: at(last), box: node.getBoundingClientRect(), direction: getComputedStyle(node).direction };
  });
}

async function exhibition(request: APIRequestContext, name: string, description: string) {
  const login = await request.post("/api/auth/login", { data: { email: "e2e_admin", password: "e2e-admin-password" } });
  const admin = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const res = await request.post("/api/exhibitions", {
    headers: admin,
    data: { name, description, startsAt: new Date(Date.now() - 3600_000).toISOString(), endsAt: new Date(Date.now() + 7 * 86400_000).toISOString() },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { exhibition: { slug: string } }).exhibition.slug;
}

test("in Arabic the approvals queue shows prices as Intl formats them, in cells and in the held reason", async ({ browser, request }, testInfo) => {
  const tag = Date.now().toString(36);
  const guardian = await account(request, "SELLER", `bq_g_${tag}`);
  const seller = await account(request, "SELLER", `bq_s_${tag}`);
  const id = await product(request, seller.auth, `Solar lamp ${tag}`, 12.5);
  const created = await request.post("/api/ai/accounts", { headers: guardian.auth, data: { role: "AI_BUYER", password: "agent-pass-456" } });
  expect(created.status()).toBe(201);
  const ai = ((await created.json()) as { account: { aiUserId: string; username: string } }).account;
  const mandate = { aiUserId: ai.aiUserId, mandateCurrency: "USD", orderApprovalThreshold: 50 };
  expect((await request.patch("/api/ai/accounts", { headers: guardian.auth, data: mandate })).status()).toBe(200);
  const login = await request.post("/api/auth/login", { data: { email: ai.username, password: "agent-pass-456" } });
  const aiAuth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  expect((await request.post("/api/orders", { headers: aiAuth, data: { productId: id, quantity: 100 } })).status()).toBeLessThan(300);

  const page = await browser.newPage({ viewport: PHONE });
  await signIn(page, guardian.username);
  await page.goto("/ar/seller/ai-accounts");
  const item = page.getByTestId("approval").filter({ hasText: `Solar lamp ${tag}` });
  await expect(item.getByTestId("approval-unit-price").getByTestId("price")).toHaveText(intl("ar", 12.5));
  const total = item.getByTestId("approval-total").getByTestId("price");
  await expect(total).toHaveText(intl("ar", 1250));
  await expect(total.locator("bdi")).toHaveAttribute("dir", "ltr");
  // The reason is a translated sentence; its figures are <Price> elements, not strings with "$US".
  const rule = item.getByTestId("approval-rule").getByTestId("price");
  await expect(rule.first()).toHaveText(intl("ar", 1250));
  await expect(rule.last()).toHaveText(intl("ar", 50));
  expect(await item.getByTestId("approval-rule").evaluate((el) => /[\u2066-\u2069]/.test(el.textContent!))).toBe(false);
  await expectNoHorizontalScroll(page);
  await item.screenshot({ path: testInfo.outputPath("approval-ar-phone.png") });
  await page.close();
});

test("an Arabic exhibition page keeps a Latin company name ending in '.' in its order", async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36);
  const company = `Anadolu Seramik ${tag} ve Ev A.S.`;
  const slug = await exhibition(request, `Ceramics Week ${tag}`, `Tiles, sanitary ware and tableware.`);
  const seller = await account(request, "SELLER", `bx_${tag}`, company);
  const booth = (await (
    await request.post("/api/booths", { headers: seller.auth, data: { name: `Anadolu: tiles ${tag}.`, exhibitionName: `Ceramics Week ${tag}` } })
  ).json()) as { booth: { id: string } };
  expect((await request.put("/api/booths", { headers: seller.auth, data: { boothId: booth.booth.id, isPublished: true } })).status()).toBe(200);

  await page.setViewportSize(PHONE);
  await page.goto(`/ar/exhibitions/${slug}`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  for (const el of [
    page.getByTestId("exhibition-booth-company").filter({ hasText: company }),
    page.getByTestId("exhibition-booth-name").filter({ hasText: tag }),
    page.getByTestId("exhibition-description"),
  ]) {
    await expect(el).toHaveAttribute("dir", "auto");
    const { first, last, direction } = await edges(el);
    expect(direction).toBe("ltr");
    // Left to right as typed: the final "." is right of the first letter, not before it.
    expect(last.left).toBeGreaterThan(first.left);
  }
  await expect(page.getByTestId("exhibition-booth-company").filter({ hasText: company })).toHaveText(company);
  await page
    .getByTestId("exhibition-booth")
    .filter({ hasText: company })
    .screenshot({ path: testInfo.outputPath("exhibition-ar-phone.png") });
});

test("on an Arabic phone a long Latin supplier name is cut at its end, its first letter in view", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const company = `Gulf Solar and Lighting Trading Company FZCO ${tag}`;
  const seller = await account(request, "SELLER", `bc_${tag}`, company);
  await product(request, seller.auth, `Garden lamp ${tag}`, 9.5);
  await page.setViewportSize(PHONE);
  const card = page.getByTestId("product-card").filter({ hasText: tag }).first();
  // The search index takes up to a second for a new product (contract 9.3).
  await expect(async () => {
    await page.goto(`/ar/search?q=${encodeURIComponent(`Garden lamp ${tag}`)}`);
    await expect(card).toBeVisible({ timeout: 1_000 });
  }).toPass();
  const name = card.getByTestId("product-supplier").locator("bdi");
  await expect(name).toHaveText(company);
  await expect(name).toHaveAttribute("dir", "auto");
  const { first, box, direction } = await edges(name);
  expect(direction).toBe("ltr");
  expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(first.left).toBeGreaterThanOrEqual(box.left - 0.5);
});

test("on a phone the seller's products table shows the price uncovered; store links and e-mail fields read left to right", async ({
  browser,
  request,
}, testInfo) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `bt_${tag}`);
  await product(request, seller.auth, `Solar garden lamp with a long descriptive title ${tag}`, 12.5);
  const page = await browser.newPage({ viewport: PHONE });
  await signIn(page, seller.username);
  await page.goto("/ar/seller/products");
  const row = page.getByTestId("seller-product-row").first();
  const price = row.getByTestId("row-price");
  const actions = row.getByTestId("row-actions");
  await expect(price.getByTestId("price")).toHaveText(intl("ar", 12.5));
  const [p, a] = [(await price.boundingBox())!, (await actions.boundingBox())!];
  // Right to left: the actions sit wholly left of the price, neither on top of it.
  expect(a.x + a.width).toBeLessThanOrEqual(p.x + 0.5);
  const covering = await price.getByTestId("price").evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el.contains(top) || top === el;
  });
  expect(covering).toBe(true);
  await expectInsideViewport(page, actions.getByRole("button").last());
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: testInfo.outputPath("products-ar-phone.png") });

  await page.goto("/ar/seller/settings");
  for (const name of ["website", "contactEmail", "phone"]) await expect(page.locator(`input[name="${name}"]`)).toHaveAttribute("dir", "ltr");
  await page.close();
});

test("the agent username preview wraps inside its box at 390 px", async ({ browser, request }) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `bidi_long_seller_${tag}`.slice(0, 32));
  const page = await browser.newPage({ viewport: PHONE });
  await signIn(page, seller.username);
  await page.goto("/ar/ai-register");
  const preview = page.getByTestId("ai-username-preview");
  await expect(preview).toHaveText(`${seller.username}_AI_BUYER`);
  expect(await preview.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const box = (await preview.boundingBox())!;
  const parent = (await preview.locator("..").boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(parent.x + parent.width + 0.5);
  await expectNoHorizontalScroll(page);
  await page.close();
});
