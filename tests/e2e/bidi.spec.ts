import { expect, test } from "@playwright/test";
import { account, product } from "./support-pages";

// Arabic pages isolate Latin user text and prices, so the bidi algorithm cannot reorder them
// ("W A60 LED bulb ... 9" became "9 ... W A60"; "US$ 23.50" became "$US 23.50").
test("in Arabic a Latin product title and its price keep their order and Intl's formatting", async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const seller = await account(request, "SELLER", `bidi_${tag}`, `Ningbo Lighting Co.,Ltd ${tag}`);
  const title = `W A60 LED bulb E27 ${tag} 9`;
  const id = await product(request, seller.auth, title, 23.5);

  await page.goto(`/ar/products/${id}`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  const heading = page.getByRole("heading", { level: 1 }).getByTestId("product-title");
  await expect(heading).toHaveAttribute("dir", "auto");
  // One text node, in the order it was typed: the isolate resolves to LTR from its first strong letter.
  expect(await heading.evaluate((el) => [...el.childNodes].map((n) => n.textContent))).toEqual([title]);
  expect(await heading.evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
  const intlAr = await page.evaluate(() => new Intl.NumberFormat("ar", { style: "currency", currency: "USD" }).format(23.5));
  // The sentence's price is Intl's string inside isolates (FSI..PDI, and LRI..PDI around "US$").
  const sentence = await page.getByTestId("product-price").evaluate((el) => el.textContent!);
  expect(sentence.replace(/[\u2066-\u2069]/g, "")).toContain(intlAr);
  expect(sentence).toContain("\u2066US$\u2069");

  await page.goto(`/ar/search?q=${encodeURIComponent(tag)}`);
  const card = page.getByTestId("product-card").first();
  await expect(card.getByTestId("product-title")).toHaveText(title);
  await expect(card.getByTestId("price")).toHaveText(intlAr);
  expect(await card.getByTestId("price").evaluate((el) => el.tagName + ":" + el.getAttribute("dir"))).toBe("BDI:rtl");
  // "US$" is its own LTR isolate: rendered right of the number's left edge it would read "$US".
  const symbol = card.getByTestId("price").locator("bdi");
  await expect(symbol).toHaveText("US$");
  await expect(symbol).toHaveAttribute("dir", "ltr");
  const [num, sym] = await card.getByTestId("price").evaluate((el) => {
    const range = document.createRange();
    const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && /\d/.test(n.textContent!))!;
    range.selectNodeContents(text);
    return [range.getBoundingClientRect().left, el.querySelector("bdi")!.getBoundingClientRect().left];
  });
  // Right to left: the number first (on the right), the symbol after it (on its left), as Intl's pattern says.
  expect(sym).toBeLessThan(num);
});

test("a URL names its language: after an Arabic page an unprefixed English link stays English", async ({ page }) => {
  await page.goto("/ar/search");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await page.goto("/search");
  expect(new URL(page.url()).pathname).toBe("/search");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  // The bare "/" follows the language seen last, now English.
  await page.goto("/");
  expect(new URL(page.url()).pathname).toBe("/");
  await page.goto("/ja/exhibitions");
  await page.goto("/");
  expect(new URL(page.url()).pathname).toBe("/ja");
});
