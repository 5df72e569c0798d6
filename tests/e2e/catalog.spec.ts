import { expect, test, type APIRequestContext } from "@playwright/test";

// A valid 2x2 PNG (red), small enough to inline.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");

async function token(request: APIRequestContext, email: string, password: string) {
  const res = await request.post("/api/auth/login", { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function newExhibition(request: APIRequestContext, name: string) {
  const admin = await token(request, "e2e_admin", "e2e-admin-password");
  const res = await request.post("/api/exhibitions", {
    headers: { authorization: `Bearer ${admin}` },
    data: {
      name,
      description: "E2E fair",
      startsAt: new Date(Date.now() - 3600_000).toISOString(),
      endsAt: new Date(Date.now() + 7 * 86400_000).toISOString(),
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { exhibition: { slug: string } }).exhibition;
}

test("a buyer searches in Chinese, filters, opens a product and sees its booth", async ({ page, request }, testInfo) => {
  const tag = Date.now().toString(36);
  const ex = await newExhibition(request, `Audio Fair ${tag}`);
  const seller = `aud_${tag}`;
  expect(
    (
      await request.post("/api/accounts/create", {
        data: { email: `${seller}@example.test`, username: seller, password: "seller-pass-1", role: "SELLER", companyName: `Shenzhen Audio ${tag}` },
      })
    ).status(),
  ).toBe(201);
  const auth = { authorization: `Bearer ${await token(request, seller, "seller-pass-1")}` };
  const booth = (await (
    await request.post("/api/booths", {
      headers: auth,
      data: { name: `Audio booth ${tag}`, exhibitionName: `Audio Fair ${tag}`, colorScheme: "#0f766e", theme: "modern" },
    })
  ).json()) as { booth: { id: string } };
  await request.put("/api/booths", { headers: auth, data: { boothId: booth.booth.id, isPublished: true } });
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const category = cats.categories.find((c) => c.parentId)!.id;
  for (const [title, price] of [
    [`Bluetooth headset ${tag}`, 19.9],
    [`Studio headphones ${tag}`, 89],
  ] as const) {
    const res = await request.post("/api/products", {
      headers: auth,
      data: { title, price, currency: "USD", category, moq: 50, boothId: booth.booth.id, keywords: ["蓝牙耳机", "headset", tag] },
    });
    expect(res.status()).toBe(201);
  }

  // Searches show new products within a second (contract 9.3).
  await page.waitForTimeout(1_000);
  await page.goto(`/zh/search?q=${encodeURIComponent("蓝牙耳机")}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await expect(page.getByTestId("product-card").filter({ hasText: tag })).toHaveCount(2);
  await page.locator('input[name="maxPrice"]').fill("50");
  await page.locator('aside form button[type="submit"]').click();
  await expect(page).toHaveURL(/maxPrice=50/);
  const cards = page.getByTestId("product-card").filter({ hasText: tag });
  await expect(cards).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("search-zh.png"), fullPage: true });
  await cards.first().click();
  await expect(page.locator("h1")).toContainText(`Bluetooth headset ${tag}`);
  await expect(page.getByTestId("product-booth-link")).toHaveText(`Audio booth ${tag}`);
  await page.screenshot({ path: testInfo.outputPath("product-zh.png"), fullPage: true });
  await page.getByTestId("product-booth-link").click();
  await expect(page.getByTestId("booth-showcase")).toBeVisible();
  await expect(page.getByTestId("product-card")).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath("booth-zh.png"), fullPage: true });
  await page.goto(`/ar/exhibitions/${ex.slug}`);
  await expect(page.getByTestId("exhibition-booth")).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("exhibition-ar.png"), fullPage: true });
});

test("a seller creates a product with an image and keywords, decorates and publishes a booth, and it shows at the exhibition", async ({
  page,
  request,
}, testInfo) => {
  const tag = Date.now().toString(36);
  const ex = await newExhibition(request, `Lighting Expo ${tag}`);
  const seller = `lit_${tag}`;
  expect(
    (
      await request.post("/api/accounts/create", {
        data: { email: `${seller}@example.test`, username: seller, password: "seller-pass-1", role: "SELLER", companyName: `Lumen ${tag}` },
      })
    ).status(),
  ).toBe(201);
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(seller);
  await page.getByLabel("Password").fill("seller-pass-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();

  // The booth first, so the product can go into it.
  await page.goto("/seller/booths");
  await page.getByTestId("new-booth").click();
  const form = page.getByTestId("booth-form");
  await form.locator('input[name="name"]').fill(`Lumen booth ${tag}`);
  await form.locator('select[name="exhibitionName"]').selectOption(`Lighting Expo ${tag}`);
  await form.locator('textarea[name="description"]').fill("Energy-saving LED lighting since 2009.");
  await form.locator('select[name="theme"]').selectOption("classic");
  await expect(page.getByTestId("booth-showcase")).toHaveAttribute("data-theme", "classic");
  await expect(page.getByTestId("booth-showcase")).toContainText(`Lumen booth ${tag}`);
  await form.locator('input[type="file"]').first().setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByTestId("booth-showcase").locator("img")).toHaveCount(1);
  await form.getByRole("button", { name: "Create booth" }).click();
  await expect(form.getByRole("status")).toHaveText("Booth saved.");
  await form.getByRole("switch").click();
  await expect(form.getByRole("switch")).toHaveAttribute("aria-checked", "true");
  await page.screenshot({ path: testInfo.outputPath("seller-booths.png"), fullPage: true });

  await page.goto("/seller/products/new");
  const pf = page.getByTestId("product-form");
  await pf.locator('input[name="title"]').fill(`LED bulb E27 ${tag}`);
  await pf.locator('textarea[name="description"]').fill("9 W, 806 lm, 2700 K warm white.");
  await pf.locator('input[name="price"]').fill("0.85");
  await pf.locator('select[name="category"] option').nth(1).waitFor({ state: "attached" });
  const firstCategory = await pf.locator('select[name="category"] option').nth(1).getAttribute("value");
  await pf.locator('select[name="category"]').selectOption(firstCategory!);
  await pf.locator('input[name="moq"]').fill("1000");
  await pf.locator('select[name="boothId"]').selectOption({ label: `Lumen booth ${tag}` });
  await pf.locator('input[type="file"]').setInputFiles({ name: "bulb.png", mimeType: "image/png", buffer: PNG });
  await expect(pf.getByTestId("product-image")).toHaveCount(1);
  for (const k of ["LED bulb", "LED灯泡", "LED-Glühbirne", "LEDライト"]) {
    await pf.getByTestId("keyword-input").fill(k);
    await pf.getByTestId("keyword-input").press("Enter");
  }
  await expect(pf.getByTestId("keyword-chip")).toHaveCount(4);
  await expect(pf.getByTestId("keyword-coverage").locator('[data-covered="true"]')).toHaveCount(7);
  await page.screenshot({ path: testInfo.outputPath("seller-product-form.png"), fullPage: true });
  await pf.getByRole("button", { name: "Save product" }).click();
  await expect(page).toHaveURL(/\/seller\/products\/[^/]+\?created=1$/);

  // Everyone now sees the booth at the exhibition, with the product and its image.
  await page.goto(`/exhibitions/${ex.slug}`);
  await page
    .getByTestId("exhibition-booth")
    .filter({ hasText: `Lumen booth ${tag}` })
    .click();
  await expect(page.getByTestId("booth-showcase")).toHaveAttribute("data-theme", "classic");
  const card = page.getByTestId("product-card").filter({ hasText: `LED bulb E27 ${tag}` });
  await expect(card).toHaveCount(1);
  await expect(card.locator("img")).toHaveAttribute("src", /^\/uploads\//);
  await page.screenshot({ path: testInfo.outputPath("booth-public.png"), fullPage: true });
});
