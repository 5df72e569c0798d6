import { expect, test } from "@playwright/test";
import { LOCALES } from "../../lib/i18n/locales";

test("a new user registers, sees themself signed in, signs out and signs in again through the page", async ({ page }) => {
  const username = `e2e_${Date.now().toString(36)}`;
  const password = "e2e-password-123";
  await page.goto("/register");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");
  await page.getByLabel("E-mail").fill(`${username}@example.test`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByTestId("signed-in-as")).toHaveAccessibleName(`Account menu for ${username}`);

  await page.getByTestId("signed-in-as").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form [role=alert]")).toHaveText("Wrong username, e-mail or password.");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveAccessibleName(`Account menu for ${username}`);
});

test("shows registration errors from the server next to the field", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("E-mail").fill("someone@example.test");
  await page.getByLabel("Username").fill("demo_seller");
  await page.getByLabel("Password").fill("long-enough-pw");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("This username is already taken.")).toBeVisible();
});

test("the home page renders in all 15 locales with lang and dir", async ({ page }) => {
  for (const locale of LOCALES) {
    await page.goto(locale === "en" ? "/" : `/${locale}`);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.locator("html")).toHaveAttribute("dir", locale === "ar" ? "rtl" : "ltr");
    await expect(page.getByTestId("category-card").first()).toBeVisible();
    // The two demo exhibitions, and any that other tests created.
    await expect(page.getByTestId("exhibition-card").nth(1)).toBeVisible();
  }
});

test("the language switcher keeps the page", async ({ page }) => {
  await page.goto("/register");
  await page.getByTestId("language-switcher").selectOption("zh");
  await expect(page).toHaveURL(/\/zh\/register$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await page.getByTestId("language-switcher").selectOption("en");
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("the API reference lists the operations", async ({ page }) => {
  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  expect(await page.getByTestId("api-operation").count()).toBeGreaterThanOrEqual(10);
});
