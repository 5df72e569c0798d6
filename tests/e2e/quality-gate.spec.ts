// The quality gate (issue #17): every page, in English and Arabic, at desktop and phone width, as the
// visitor, buyer, seller/guardian and admin who would open it. A page fails on a horizontal
// scrollbar, a console error, a failed request, a serious or critical axe-core violation (with its
// inputs filled first, so the contrast of typed text is checked too), or its Content-Security-Policy
// (issue #7 point 5: a nonce or hashes for scripts, never 'unsafe-inline', no framing, no violation
// reported, and the page's own scripts ran). One test per locale and width reports every failing
// page at once.
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { axe, cspHeaderProblems, cspViolations, networkWatch, recordCspViolations } from "./support-pages";

type Role = "visitor" | "buyer" | "seller" | "admin";
const ACCOUNTS: Record<Exclude<Role, "visitor">, [string, string]> = {
  buyer: ["demo_buyer", "demo-buyer-pass"],
  seller: ["demo_seller", "demo-seller-pass"],
  admin: ["demo_admin", "demo-admin-pass"],
};
const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;

async function token(request: APIRequestContext, role: Exclude<Role, "visitor">): Promise<string> {
  const [email, password] = ACCOUNTS[role];
  const res = await request.post("/api/auth/login", { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function first<T>(request: APIRequestContext, path: string, pick: (body: never) => T | undefined, auth?: string): Promise<T> {
  const res = await request.get(path, auth ? { headers: { authorization: `Bearer ${auth}` } } : {});
  expect(res.status(), path).toBe(200);
  const value = pick((await res.json()) as never);
  expect(value, `nothing to visit from ${path}`).toBeTruthy();
  return value!;
}

/** Every page of the site with real ids from the demo fair, under the role that would open it. */
async function pages(request: APIRequestContext): Promise<Record<Role, string[]>> {
  const buyer = await token(request, "buyer");
  const seller = await token(request, "seller");
  type Id = { id: string };
  const product = await first(request, "/api/products/search?limit=1", (b: { products: Id[] }) => b.products[0]?.id);
  const booth = await first(request, "/api/public/booths?limit=1", (b: { booths: Id[] }) => b.booths[0]?.id);
  const exhibition = await first(request, "/api/exhibitions", (b: { exhibitions: { slug: string }[] }) => b.exhibitions[0]?.slug);
  const store = await first(request, "/api/sellers/public?limit=1", (b: { sellers: Id[] }) => b.sellers[0]?.id);
  const requirement = await first(request, "/api/buyer/requirements", (b: { requirements: Id[] }) => b.requirements[0]?.id, buyer);
  const offer = await first(request, "/api/offers", (b: { offers: Id[] }) => b.offers[0]?.id, buyer);
  const store0 = await first(request, "/api/auth/me", (b: { user: { sellerProfileId: string | null } }) => b.user.sellerProfileId, seller);
  const ownProduct = await first(request, `/api/products?sellerId=${store0}&limit=1`, (b: { products: Id[] }) => b.products[0]?.id);
  return {
    visitor: [
      "/",
      "/search",
      "/search?q=lamp",
      `/products/${product}`,
      "/exhibitions",
      `/exhibitions/${exhibition}`,
      `/booths/${booth}`,
      `/stores/${store}`,
      "/stores",
      "/shoutouts",
      "/tasks",
      "/api-docs",
      "/register",
      "/sign-in",
      "/forgot-password",
      "/ai-register",
      "/legal/ai-privacy-policy",
      "/no-such-page",
    ],
    buyer: [
      "/buyer",
      `/buyer/requirements/${requirement}`,
      "/offers",
      `/offers/${offer}`,
      "/chat",
      "/notifications",
      `/orders/new?productId=${product}`,
      `/inquiries/new?productId=${product}`,
      "/settings/api-keys",
    ],
    seller: [
      "/seller",
      "/seller/products",
      "/seller/products/new",
      `/seller/products/${ownProduct}`,
      "/seller/booths",
      "/seller/inquiries",
      "/seller/orders",
      "/seller/requirements",
      "/seller/settings",
      "/seller/ai-accounts",
    ],
    admin: ["/admin/fx-rates"],
  };
}

async function signIn(browser: Browser, role: Role, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await recordCspViolations(context);
  const page = await context.newPage();
  if (role === "visitor") return page;
  const [username, password] = ACCOUNTS[role];
  await page.goto("/en/sign-in");
  await page.locator("input[name=email], input[autocomplete=username]").first().fill(username);
  await page.locator("input[type=password]").first().fill(password);
  await page.locator("form button[type=submit]").first().click();
  await page.waitForURL((url) => !url.pathname.endsWith("/sign-in"));
  return page;
}

/** Types plausible text into every visible, editable field, so axe sees typed text and its contrast. */
async function fillInputs(page: Page) {
  const fields = page.locator(
    "input:not([type]):visible, input[type=text]:visible, input[type=email]:visible, input[type=search]:visible, input[type=url]:visible, input[type=tel]:visible, input[type=number]:visible, input[type=password]:visible, textarea:visible",
  );
  for (const field of await fields.all()) {
    if (!(await field.isEditable().catch(() => false))) continue;
    const type = (await field.getAttribute("type")) ?? "text";
    const value = type === "number" ? "12" : type === "email" ? "someone@example.com" : type === "url" ? "https://example.com" : "Sample text 12";
    await field.fill(value, { timeout: 2_000 }).catch(() => undefined);
  }
}

async function check(page: Page, path: string, width: number): Promise<string[]> {
  const problems: string[] = [];
  // The not-found page answers 404 on purpose; Chromium logs that status of the document as an error.
  const missingPage = path.endsWith("/no-such-page");
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() !== "error") return;
    if (missingPage && m.text().startsWith("Failed to load resource: the server responded with a status of 404")) return;
    problems.push(`console error: ${m.text().slice(0, 200)}`);
  };
  const onPageError = (e: Error) => problems.push(`page error: ${e.message.slice(0, 200)}`);
  const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) => {
    const why = r.failure()?.errorText ?? "";
    // Cancelled by a navigation (the sign-in's redirect, the next page, a prefetch): not a failure.
    if (why.includes("ERR_ABORTED")) return;
    problems.push(`request failed: ${r.url()} (${why})`);
  };
  const onResponse = (r: { url(): string; status(): number }) => {
    if (r.status() >= 400 && !(missingPage && r.url().endsWith(path))) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  };
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("requestfailed", onFailed);
  page.on("response", onResponse);
  const network = networkWatch(page);
  try {
    const res = await page.goto(path, { waitUntil: "load" });
    problems.push(...(await cspHeaderProblems(res)));
    await network.settled();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) {
      const wide = await page.evaluate((w) => {
        const out: string[] = [];
        // Past the right edge, or past the left one (a right-to-left page overflows to the left).
        const outside = (r: DOMRect) => r.right > w + 1 || r.left < -1;
        for (const e of document.querySelectorAll("body *")) {
          if (outside(e.getBoundingClientRect()) && ![...e.children].some((c) => outside(c.getBoundingClientRect())))
            out.push(`${e.tagName.toLowerCase()}.${String(e.className).split(" ").slice(0, 3).join(".")}`);
        }
        return out.slice(0, 5);
      }, width);
      problems.push(`horizontal scroll of ${overflow}px at ${width}px: ${wide.join(", ")}`);
    }
    await fillInputs(page);
    const { violations } = await axe(page).analyze();
    // The header's account area is filled in by client JavaScript: proof that the page's own scripts ran (by now
    // it has, or never will: asked after axe, this rarely waits).
    const account = page.locator("header [data-testid=user-menu], header a[href$='/sign-in']").first();
    if (
      !(await account.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      ))
    )
      problems.push("the page's scripts did not run");
    for (const v of await cspViolations(page)) problems.push(`CSP violation: ${v}`);
    for (const v of violations.filter((x) => x.impact === "serious" || x.impact === "critical"))
      problems.push(
        `axe ${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
      );
  } finally {
    network.stop();
    page.off("console", onConsole);
    page.off("pageerror", onPageError);
    page.off("requestfailed", onFailed);
    page.off("response", onResponse);
  }
  return problems;
}

for (const locale of ["en", "ar"] as const) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`quality gate: every page in ${locale} on a ${name} (${viewport.width}px)`, async ({ browser, request }) => {
      test.setTimeout(600_000);
      const byRole = await pages(request);
      // Two lanes side by side, each role in a browser context of its own: one page at a time left a
      // third of the two cores idle (the browser, the server and axe take turns). About half the
      // pages are the visitor's.
      const roles = Object.keys(byRole) as Role[];
      const lanes = [["visitor"] as Role[], roles.filter((r) => r !== "visitor")];
      const found = await Promise.all(
        lanes.map(async (roles) => {
          const failures: string[] = [];
          for (const role of roles) {
            const page = await signIn(browser, role, viewport);
            for (const path of byRole[role]) {
              const url = locale === "en" ? path : `/${locale}${path}`;
              for (const p of await check(page, url, viewport.width)) failures.push(`${role} ${url}: ${p}`);
            }
            await page.context().close();
          }
          return failures;
        }),
      );
      expect(found.flat()).toEqual([]);
    });
  }
}
