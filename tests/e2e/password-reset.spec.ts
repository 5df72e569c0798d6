// Forgotten password in the browser (#17): "Forgot password?" on the sign-in page, the e-mail (caught
// by an SMTP server of this spec's own, where the e2e server's SMTP_URL points), the new password,
// and signing in with it; then the link refuses a second use.
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { E2E_SMTP_PORT } from "../../playwright.config";

const mails: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(E2E_SMTP_PORT, "127.0.0.1", resolve));
  expect((smtp.server.address() as AddressInfo).port).toBe(E2E_SMTP_PORT);
});
test.afterAll(async () => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** The reset link of the newest mail to `email`, quoted-printable soft breaks undone. */
async function resetLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mail = mails.filter((m) => m.to.includes(email)).find((m) => /reset-password/.test(m.raw.replace(/=\r?\n/g, "")));
        const body = mail?.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
        link = body ? /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(body)?.[0] : undefined;
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return link!;
}

test("a user who forgot the password gets a link by e-mail, sets a new password and signs in with it", async ({ page }) => {
  const username = `e2e_reset_${Date.now().toString(36)}`;
  const email = `${username}@example.test`;
  const created = await page.request.post("/api/accounts/create", { data: { email, username, password: "old-password-123", role: "BUYER" } });
  expect(created.status()).toBe(201);

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your password");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`If an account uses ${email}`);

  const link = await resetLink(email);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
  await page.getByLabel("New password", { exact: true }).fill("new-password-456");
  await page.getByLabel("Repeat the new password").fill("new-password-456");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Your password has been changed");

  await page.getByRole("main").getByRole("status").getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill("new-password-456");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveAccessibleName(`Account menu for ${username}`);

  // The link worked once.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ""));
  await page.getByLabel("New password", { exact: true }).fill("third-password-789");
  await page.getByLabel("Repeat the new password").fill("third-password-789");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.locator("form [role=alert]")).toContainText("This link has already been used.");
});

test("a disabled agent signing in with its right password is told its account is disabled, in its language", async ({ page }) => {
  const username = `e2e_guard_${Date.now().toString(36)}`;
  const created = await page.request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: "guardian-pass-1", role: "SELLER", companyName: "Guard Co" },
  });
  expect(created.status()).toBe(201);
  const login = await page.request.post("/api/auth/login", { data: { email: username, password: "guardian-pass-1" } });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const ai = await page.request.post("/api/ai/accounts", { headers, data: { role: "AI_BUYER", password: "agent-pass-123" } });
  const { account } = (await ai.json()) as { account: { aiUserId: string; username: string } };
  expect((await page.request.delete(`/api/ai/accounts?aiUserId=${account.aiUserId}`, { headers })).status()).toBe(200);

  await page.goto("/ar/sign-in");
  await page.locator("#email").fill(account.username);
  await page.locator("#password").fill("agent-pass-123");
  await page.locator("form button[type=submit]").click();
  await expect(page.locator("form [role=alert]")).toHaveText("هذا الحساب معطّل. إذا كان حساب وكيل ذكاء اصطناعي، فيمكن لوصيّه إعادة تفعيله.");
  // A wrong password still says only that.
  await page.locator("#password").fill("not-the-password");
  await page.locator("form button[type=submit]").click();
  await expect(page.locator("form [role=alert]")).not.toContainText("معطّل");
});
