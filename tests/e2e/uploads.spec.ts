import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// Served uploads never run as part of the site (issue #7, point 3), proven in Chromium: files that
// carry script (polyglots, which pass as the image or document their bytes are) are opened as
// pages, framed, and pulled in as <script> by a page of the site's own origin; nothing runs.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");

/** What each payload does if it ever runs: a cookie, window.name, a global, and a request. */
const payload = (tag: string) => `document.cookie="pwned=${tag}; path=/";window.name="pwned-${tag}";window.pwned="${tag}";fetch("/api/health?pwned=${tag}");`;

async function sellerToken(request: APIRequestContext) {
  const username = `up_${Date.now().toString(36)}`;
  expect(
    (
      await request.post("/api/accounts/create", {
        data: { email: `${username}@example.test`, username, password: "upload-pass-1", role: "SELLER", companyName: `Co ${username}` },
      })
    ).status(),
  ).toBe(201);
  const res = await request.post("/api/auth/login", { data: { email: username, password: "upload-pass-1" } });
  return ((await res.json()) as { token: string }).token;
}

async function upload(request: APIRequestContext, token: string, type: string, name: string, mimeType: string, buffer: Buffer) {
  const res = await request.post("/api/upload", { headers: { authorization: `Bearer ${token}` }, multipart: { type, file: { name, mimeType, buffer } } });
  return { status: res.status(), body: (await res.json()) as { url: string; mimeType: string; code?: string } };
}

/** Every request the page's context makes that carries the payload's marker. */
function watch(page: Page) {
  const hits: string[] = [];
  page.context().on("request", (r) => {
    if (r.url().includes("pwned")) hits.push(r.url());
  });
  return hits;
}

test("uploaded files carrying script never execute in the site's origin", async ({ page, request }) => {
  const token = await sellerToken(request);
  const html = (tag: string) => `<html><body><h1>hi</h1><script>${payload(tag)}</script><img src=x onerror='${payload(tag)}'></body></html>`;

  // HTML and SVG themselves are refused at the door.
  for (const [name, mime, body] of [
    ["page.html", "text/html", html("html")],
    ["logo.svg", "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg" onload='${payload("svg")}'><script>${payload("svg")}</script></svg>`],
  ] as const) {
    for (const type of ["product_image", "boothDocument"]) {
      const res = await upload(request, token, type, name, mime, Buffer.from(body));
      expect(res.status, `${name} as ${type}`).toBe(415);
    }
  }

  // Polyglots pass as what their bytes are.
  const png = await upload(request, token, "product_image", "poly.png", "text/html", Buffer.concat([PNG, Buffer.from(html("png"))]));
  const gif = await upload(
    request,
    token,
    "product_image",
    "poly.gif",
    "text/javascript",
    Buffer.from(`GIF89a=1;${payload("gif")}//\x01\x00\x01\x00\x00\x00\x00;`, "latin1"),
  );
  const pdf = await upload(request, token, "boothDocument", "poly.pdf", "text/html", Buffer.from(`%PDF-1.4\n${html("pdf")}`));
  const csv = await upload(request, token, "boothDocument", "poly.csv", "text/html", Buffer.from(html("csv")));
  expect([png, gif, pdf, csv].map((r) => [r.status, r.body.mimeType])).toEqual([
    [201, "image/png"],
    [201, "image/gif"],
    [201, "application/pdf"],
    [201, "text/csv"],
  ]);

  const hits = watch(page);
  // Opened as pages: images render as images in a sandboxed, opaque-origin document.
  for (const r of [png, gif]) {
    const res = await page.goto(r.body.url);
    expect(res?.status()).toBe(200);
    expect(await page.evaluate(() => ({ name: window.name, pwned: (window as { pwned?: string }).pwned, origin: window.origin }))).toEqual({
      name: "",
      pwned: undefined,
      origin: "null",
    });
  }
  // Documents are downloads, never pages.
  for (const r of [pdf, csv]) {
    const download = page.waitForEvent("download");
    await page.goto(r.body.url).catch(() => {});
    expect((await download).suggestedFilename()).toMatch(/^poly\.(pdf|csv)$/);
  }

  // Pulled into a document of the site's own origin (as an HTML injection would): framed, and as
  // <script src>. /api/health is such a document; since every answer carries a CSP, its
  // `default-src 'none'` already refuses the inline control script, and the upload's own headers
  // (nosniff, sandbox, attachment) are a second layer proven on their own above and in the
  // integration tests' header checks.
  await page.goto("/api/health");
  const outcome = await page.evaluate(
    async (urls) => {
      const control = document.createElement("script");
      control.textContent = "window.control = 1;";
      document.body.append(control);
      const scripts = await Promise.all(
        urls.map(
          (src) =>
            new Promise<string>((resolve) => {
              const s = document.createElement("script");
              s.src = src;
              s.onload = () => resolve("loaded");
              s.onerror = () => resolve("blocked");
              document.body.append(s);
            }),
        ),
      );
      const frames = await Promise.all(
        urls.map(
          (src) =>
            new Promise<string>((resolve) => {
              const f = document.createElement("iframe");
              f.src = src;
              f.onload = () => {
                let reachable = "opaque";
                try {
                  reachable = String(f.contentWindow?.document.body ? "same-origin" : "opaque");
                } catch {
                  reachable = "opaque";
                }
                resolve(reachable);
              };
              document.body.append(f);
            }),
        ),
      );
      await new Promise((r) => setTimeout(r, 500));
      return { control: (window as { control?: number }).control, pwned: (window as { pwned?: string }).pwned, name: window.name, scripts, frames };
    },
    [png.body.url, gif.body.url],
  );
  expect(outcome).toEqual({ control: undefined, pwned: undefined, name: "", scripts: ["blocked", "blocked"], frames: ["opaque", "opaque"] });

  await page.waitForTimeout(300);
  expect(hits).toEqual([]);
  expect((await page.context().cookies()).filter((c) => c.name === "pwned")).toEqual([]);
});
