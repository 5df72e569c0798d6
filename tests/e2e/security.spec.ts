// Issue #7, point 5, in the browser: stored XSS payloads in every text field a page shows stay text
// (each page also under its strict CSP without a violation), a cross-site form cannot act with the
// user's cookie, and a foreign callbackUrl never leaves the site. That every page of the site runs
// under its CSP without a violation, signed out and signed in, is checked by the quality gate
// (quality-gate.spec.ts), which opens them all.
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { cspHeaderProblems, cspViolations, networkWatch, recordCspViolations } from "./support-pages";

declare global {
  interface Window {
    __xss?: unknown;
  }
}

const PASSWORD = "xss-pass-12345";

/** Payloads that set window.__xss if they ever run: tags, handlers, quote breaking, JSON-LD breakout. */
const P = {
  script: "<script>window.__xss=1</script>",
  img: "<img src=x onerror=window.__xss=2>",
  svg: '"><svg onload=window.__xss=3>',
  quote: "' onmouseover='window.__xss=4' x='",
  breakout: "</script><script>window.__xss=5</script>",
  iframe: '<iframe srcdoc="<script>parent.__xss=6</script>"></iframe>',
  link: '<a href="javascript:window.__xss=7">x</a>',
};
const ALL = Object.values(P).join("");
/** A payload carrying a findable tag, cut to a field's length. */
const payload = (tag: string, max = 10_000) => `${tag} ${ALL}`.slice(0, max);

/** Record CSP violations and dialogs from the first script on, in every page of the context. */
async function watch(page: Page) {
  await recordCspViolations(page.context());
  const problems: string[] = [];
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** Open a page and check: strict CSP header, scripts ran (the user menu settled), nothing injected ran. */
async function visit(page: Page, problems: string[], path: string) {
  const network = networkWatch(page);
  const res = await page.goto(path);
  expect(await cspHeaderProblems(res), path).toEqual([]);
  // The user menu is filled in by client JavaScript: proof that the page's own scripts ran.
  await expect(page.locator("header").getByText(/Loading/)).toHaveCount(0);
  await network.settled();
  network.stop();
  expect(await page.evaluate(() => window.__xss), `${path}: an injected script ran`).toBeUndefined();
  expect(await cspViolations(page), `${path}: CSP violations`).toEqual([]);
  expect(problems, path).toEqual([]);
}

async function account(request: APIRequestContext, role: "BUYER" | "SELLER", username: string, companyName?: string) {
  const res = await request.post("/api/accounts/create", { data: { email: `${username}@example.test`, username, password: PASSWORD, role, companyName } });
  expect(res.status(), await res.text()).toBe(201);
  const login = await request.post("/api/auth/login", { data: { email: username, password: PASSWORD } });
  const body = (await login.json()) as { token: string; user: { id: string } };
  return { id: body.user.id, username, auth: { authorization: `Bearer ${body.token}` } };
}

async function signedInPage(browser: Browser, username: string) {
  const page = await (await browser.newContext()).newPage();
  const problems = await watch(page);
  await page.goto("/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  return { page, problems };
}

test("stored XSS: payloads in every text field stay inert text on every page that shows them", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const tag = `x${Date.now().toString(36)}`;
  const admin = {
    authorization: `Bearer ${((await (await request.post("/api/auth/login", { data: { email: "e2e_admin", password: "e2e-admin-password" } })).json()) as { token: string }).token}`,
  };
  const ex = (await (
    await request.post("/api/exhibitions", {
      headers: admin,
      data: {
        name: `Fair ${tag}`,
        description: payload(tag),
        venue: payload(tag, 200),
        startsAt: new Date(Date.now() - 3600_000).toISOString(),
        endsAt: new Date(Date.now() + 86400_000).toISOString(),
      },
    })
  ).json()) as { exhibition: { slug: string } };
  const seller = await account(request, "SELLER", `s${tag}`, payload(tag, 200));
  const buyer = await account(request, "BUYER", `b${tag}`);
  const settings = await request.put("/api/seller/settings", {
    headers: seller.auth,
    data: { description: payload(tag), country: payload(tag, 100), phone: P.img.slice(0, 50) },
  });
  expect(settings.status(), await settings.text()).toBe(200);

  // Link fields refuse script and data URLs outright (400), and keep quote-breaking ones as text.
  for (const bad of [
    "javascript:window.__xss=8",
    " JaVaScRiPt:window.__xss=8",
    "data:text/html,<script>window.__xss=8</script>",
    "//evil.example/x.png",
    "/\\evil.example/x.png",
    "vbscript:x",
  ]) {
    const res = await request.post("/api/booths", { headers: seller.auth, data: { name: "bad", logoUrl: bad } });
    expect(res.status(), bad).toBe(400);
    const doc = await request.post("/api/booths", {
      headers: seller.auth,
      data: { name: "bad", documents: [{ url: bad, name: "d", type: "application/pdf", size: 1 }] },
    });
    expect(doc.status(), bad).toBe(400);
  }
  const quoteUrl = `/uploads/x.png"onerror="window.__xss=9"`;
  const booth = (await (
    await request.post("/api/booths", {
      headers: seller.auth,
      data: {
        name: payload(tag, 200),
        exhibitionName: `Fair ${tag}`,
        location: payload(tag, 200),
        description: payload(tag),
        colorScheme: `red;background:url(javascript:window.__xss=10)`.slice(0, 50),
        theme: P.svg.slice(0, 50),
        logoUrl: quoteUrl,
        bannerUrl: `/uploads/y.png");background:url("javascript:window.__xss=11`,
        keywords: [P.script, P.img],
        documents: [{ url: quoteUrl, name: payload(tag, 255), type: P.img, size: 1 }],
      },
    })
  ).json()) as { booth: { id: string } };
  expect(booth.booth?.id).toBeTruthy();
  expect((await request.put("/api/booths", { headers: seller.auth, data: { boothId: booth.booth.id, isPublished: true } })).status()).toBe(200);
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const created = await request.post("/api/products", {
    headers: seller.auth,
    data: {
      title: payload(tag, 200),
      description: payload(tag),
      price: 12,
      currency: "USD",
      category: cats.categories.find((c) => c.parentId)!.id,
      moq: 1,
      boothId: booth.booth.id,
      keywords: [tag, P.script, P.img, P.svg, P.breakout.slice(0, 100)],
      images: [quoteUrl],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const productId = ((await created.json()) as { product: { id: string } }).product.id;
  for (const [path, data] of [
    ["/api/shoutout", { content: payload(tag, 500), productId }],
    ["/api/chat/messages", { to: seller.id, content: payload(tag), productId }],
    ["/api/buyer/inquiries", { productId, message: payload(tag) }],
    ["/api/marketplace/tasks", { title: payload(tag, 200), description: payload(tag) }],
    ["/api/buyer/requirements", { title: payload(tag, 200), description: payload(tag) }],
  ] as const) {
    const res = await request.post(path, { headers: buyer.auth, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
  }

  const anon = await (await browser.newContext()).newPage();
  const anonProblems = await watch(anon);
  const publicPages = [
    `/products/${productId}`,
    `/zh/products/${productId}`,
    `/search?q=${tag}`,
    `/booths/${booth.booth.id}`,
    `/stores/${seller.id}`,
    `/exhibitions/${ex.exhibition.slug}`,
    "/exhibitions",
    "/shoutouts",
    "/tasks",
    "/",
  ];
  for (const path of publicPages) await visit(anon, anonProblems, path);
  // Shown literally, where the page shows the field.
  await anon.goto(`/products/${productId}`);
  await expect(anon.locator("h1")).toHaveText(payload(tag, 200));
  // JSON-LD: still one parseable block carrying the title, and no way out of its <script>.
  const ld = await anon.locator('script[type="application/ld+json"]').allTextContents();
  expect(ld.length).toBeGreaterThan(0);
  expect(ld.some((t) => JSON.stringify(JSON.parse(t)).includes(P.breakout))).toBe(true);
  await anon.goto("/shoutouts");
  await expect(
    anon
      .getByTestId("shoutout")
      .filter({ hasText: `${tag} <script>` })
      .first(),
  ).toContainText(payload(tag, 500));
  await anon.goto(`/booths/${booth.booth.id}`);
  await expect(anon.getByTestId("booth-showcase").locator("h1")).toHaveText(payload(tag, 200));

  const buyerView = await signedInPage(browser, buyer.username);
  for (const path of [
    "/chat",
    "/buyer",
    "/buyer?tab=inquiries",
    "/buyer?tab=requirements",
    `/inquiries/new?productId=${productId}`,
    `/orders/new?productId=${productId}`,
    "/tasks",
    "/shoutouts",
  ]) {
    await visit(buyerView.page, buyerView.problems, path);
  }
  await buyerView.page.goto("/chat");
  await buyerView.page.getByTestId("conversation").first().click();
  await expect(buyerView.page.getByTestId("message").first()).toContainText(payload(tag));

  const sellerView = await signedInPage(browser, seller.username);
  for (const path of [
    "/chat",
    "/seller",
    "/seller/products",
    `/seller/products/${productId}`,
    "/seller/booths",
    "/seller/inquiries",
    "/seller/orders",
    "/seller/settings",
    "/requirements",
  ].filter((p) => p !== "/requirements")) {
    await visit(sellerView.page, sellerView.problems, path);
  }
  await sellerView.page.goto("/seller/inquiries");
  await expect(sellerView.page.getByText(`${tag} <script>`).first()).toBeVisible();
});

test("a cross-site page cannot act with the user's cookie, and a foreign callbackUrl never leaves the site", async ({ browser, request, baseURL }) => {
  test.setTimeout(180_000);
  const tag = `f${Date.now().toString(36)}`;
  await account(request, "BUYER", `b${tag}`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("E-mail or username").fill(`b${tag}`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();

  // The attacker's page, on another site, posts a form (no preflight) and a fetch with credentials.
  const target = `${baseURL}/api/keys`;
  await context.route("http://evil.test/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<form id=f method=post action="${target}" enctype="text/plain"><input name='{"name":"csrf-form","x":"' value='"}'></form>
        <script>fetch(${JSON.stringify(target)}, { method: "POST", credentials: "include", headers: { "content-type": "text/plain" }, body: JSON.stringify({ name: "csrf-fetch" }) }).catch(() => {}).finally(() => document.getElementById("f").submit());</script>`,
    }),
  );
  const evil = await context.newPage();
  const answer = evil.waitForResponse((r) => r.url() === target && r.request().method() === "POST" && r.request().resourceType() === "document");
  await evil.goto("http://evil.test/attack");
  const res = await answer;
  expect([401, 403]).toContain(res.status());
  // Nothing was created with the victim's cookie.
  const keys = (await (await page.request.get("/api/keys")).json()) as { keys: { name: string }[] };
  expect(keys.keys.map((k) => k.name)).toEqual([]);

  // Sign in again through a link carrying a foreign callbackUrl: the browser stays on the site.
  await page.getByTestId("signed-in-as").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  let leftSite = false;
  await context.route("**/*", (route) => {
    const host = new URL(route.request().url()).host;
    if (host !== new URL(baseURL!).host) leftSite = true;
    return host === new URL(baseURL!).host ? route.continue() : route.abort();
  });
  for (const callbackUrl of ["/\\evil.test/x", "//evil.test/x", "https://evil.test/x", "javascript:alert(1)"]) {
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await page.getByLabel("E-mail or username").fill(`b${tag}`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("signed-in-as")).toBeVisible();
    expect(new URL(page.url()).host, callbackUrl).toBe(new URL(baseURL!).host);
    expect(leftSite, callbackUrl).toBe(false);
    await page.getByTestId("signed-in-as").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  }
});
