import AxeBuilder from "@axe-core/playwright";
import axeCore from "axe-core";
import { expect, type APIRequestContext, type BrowserContext, type Page, type Response } from "@playwright/test";

/**
 * Rules that can only report "minor" or "moderate" findings, left out of every run: each rule fixes the impact
 * of what it finds (axe-core's `_finalizeRuleResult` gives every result the rule's own impact), and every
 * check here counts serious and critical findings only. About a third of the rules (region, the landmark and
 * heading rules among them), read from axe-core itself so a new version's rules are sorted the same way.
 */
const BELOW_SERIOUS = ((axeCore as unknown as { _audit?: { rules: { id: string; impact?: string }[] } })._audit?.rules ?? [])
  .filter((r) => r.impact === "minor" || r.impact === "moderate")
  .map((r) => r.id);

/**
 * axe-core in the page itself (legacy mode): the default mode finishes every run in a new blank page, which
 * doubled the time of each check (0.7-2.4 s against 0.3-1.2 s a page here, the same results); it exists for
 * cross-origin frames, and the site has none. axe's 560 kB source is evaluated once per document: the
 * builder evaluates it twice a run (~0.25 s each here), so it gets a no-op for a source once `window.axe`
 * is there. Only violations are collected: every check reads those, and axe otherwise builds a selector
 * for every passing node of every rule.
 */
class PageAxe extends AxeBuilder {
  constructor(private readonly target: Page) {
    super({ page: target, axeSource: "void 0" });
    this.setLegacyMode(true)
      .disableRules(BELOW_SERIOUS)
      .options({ resultTypes: ["violations"] });
  }

  override async analyze() {
    if (!(await this.target.evaluate(() => typeof (window as { axe?: unknown }).axe === "object"))) await this.target.evaluate(axeCore.source);
    return super.analyze();
  }
}

export const axe = (page: Page) => new PageAxe(page);

export const PASSWORD = "pages-pass-1";

export async function account(request: APIRequestContext, role: "BUYER" | "SELLER", username: string, companyName?: string) {
  const res = await request.post("/api/accounts/create", {
    data: { email: `${username}@example.test`, username, password: PASSWORD, role, companyName: companyName ?? `Co ${username}` },
  });
  expect(res.status()).toBe(201);
  const login = await request.post("/api/auth/login", { data: { email: username, password: PASSWORD } });
  expect(login.status()).toBe(200);
  return { username, auth: { authorization: `Bearer ${((await login.json()) as { token: string }).token}` } };
}

export async function product(request: APIRequestContext, auth: Record<string, string>, title: string, price: number) {
  const cats = (await (await request.get("/api/categories")).json()) as { categories: { id: string; parentId: string | null }[] };
  const category = cats.categories.find((c) => c.parentId)!.id;
  const res = await request.post("/api/products", { headers: auth, data: { title, price, currency: "USD", category, moq: 1 } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { product: { id: string } }).product.id;
}

export async function signIn(page: Page, username: string) {
  await page.goto("/en/sign-in");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
}

/** No horizontal scrollbar on the document. */
export async function expectNoHorizontalScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

/** The element lies wholly inside the viewport's width. */
export async function expectInsideViewport(page: Page, selector: ReturnType<Page["locator"]>) {
  const box = (await selector.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
}

/**
 * Tracks the page's requests from now on; `settled()` resolves once none has been in flight for `quietMs`, or
 * after `timeoutMs`. Playwright's "networkidle" waits for 500 ms without a request: measured, 0.7-1 s a page
 * after "load" and over 40% of the quality gate's time (~150 page loads), although a page's own requests (the
 * session probe, then Next's prefetches) follow each other within a few milliseconds.
 */
export function networkWatch(page: Page, quietMs = 150) {
  const inFlight = new Set<unknown>();
  let last = Date.now();
  const start = (r: unknown) => {
    inFlight.add(r);
    last = Date.now();
  };
  const end = (r: unknown) => {
    inFlight.delete(r);
    last = Date.now();
  };
  page.on("request", start);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  return {
    async settled(timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until && (inFlight.size > 0 || Date.now() - last < quietMs)) await new Promise((r) => setTimeout(r, 25));
    },
    stop() {
      page.off("request", start);
      page.off("requestfinished", end);
      page.off("requestfailed", end);
    },
  };
}

declare global {
  interface Window {
    __csp?: string[];
  }
}

/**
 * What a page's Content-Security-Policy must say (issue #7 point 5): scripts by a fresh nonce on rendered pages or
 * by the hashes of its inline scripts on a page prerendered at build time, never 'unsafe-inline', and no framing.
 */
export async function cspHeaderProblems(res: Response | null): Promise<string[]> {
  if (!res) return ["no response"];
  const csp = (await res.allHeaders())["content-security-policy"] ?? "";
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  const problems: string[] = [];
  if (!/'nonce-|'sha256-/.test(scriptSrc)) problems.push(`script-src without a nonce or hashes: ${csp || "(no CSP header)"}`);
  if (scriptSrc.includes("unsafe-inline")) problems.push(`script-src allows 'unsafe-inline': ${csp}`);
  if (!csp.includes("frame-ancestors 'none'")) problems.push(`no frame-ancestors 'none': ${csp}`);
  return problems;
}

/** Records the CSP violations of every document in the context from its first script on (read: `cspViolations`). */
export async function recordCspViolations(context: BrowserContext) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
}

export const cspViolations = (page: Page) => page.evaluate(() => window.__csp ?? []);
