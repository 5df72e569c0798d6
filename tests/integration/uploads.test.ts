import { describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createUser, login } from "../support/api";
import { minimalPdf, postMultipart, tinyPng } from "../support/multipart";
import { officeFile, zip } from "../support/zip";

// POST /api/upload and GET /uploads/<key> on the shared server (storage limits and memory are in
// uploads-storage.test.ts, on a server of its own whose upload directory the test can see).
const upload = (token: string | undefined, parts: Parameters<typeof postMultipart>[2], opts?: { stream?: boolean }) =>
  postMultipart(`${baseUrl()}/api/upload`, token, parts, opts);

async function userToken(role: "BUYER" | "SELLER" = "SELLER") {
  const user = await createUser(role);
  return login(user.username, user.password);
}

describe("POST /api/upload", () => {
  it("stores a PNG and serves it back byte for byte with locked-down headers", async () => {
    const token = await userToken();
    const png = tinyPng();
    const res = await upload(token, [
      { name: "type", value: "product_image" },
      { name: "file", filename: "red dot.png", data: png, contentType: "text/plain" },
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "red dot.png", size: png.length, mimeType: "image/png" });
    expect(res.body.url).toMatch(/^\/uploads\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);

    const served = await fetch(`${baseUrl()}${res.body.url as string}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("content-disposition")).toBeNull();

    const head = await fetch(`${baseUrl()}${res.body.url as string}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
    expect(await head.text()).toBe("");

    const part = await fetch(`${baseUrl()}${res.body.url as string}`, { headers: { range: "bytes=0-7" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${png.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(0, 8))).toBe(true);
    const beyond = await fetch(`${baseUrl()}${res.body.url as string}`, { headers: { range: `bytes=${png.length}-` } });
    expect(beyond.status).toBe(416);
  });

  it("accepts the file before the type, and a streamed (chunked) body", async () => {
    const token = await userToken();
    const res = await upload(
      token,
      [
        { name: "file", filename: "a.png", data: tinyPng([0, 0, 255, 255]) },
        { name: "type", value: "boothBanner" },
      ],
      { stream: true },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.mimeType).toBe("image/png");
  });

  it("refuses text, SVG and a document posing as an image with 415", async () => {
    const token = await userToken();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const cases: [string, string, Buffer][] = [
      ["product_image", "notes.txt", Buffer.from("just some text, not a picture\n")],
      ["product_image", "logo.svg", svg],
      ["boothLogo", "logo.png", svg],
      ["product_image", "doc.png", minimalPdf()],
      ["boothDocument", "image.pdf", tinyPng()],
      ["boothDocument", "data.txt", Buffer.from("a,b\n1,2\n")],
    ];
    for (const [type, filename, data] of cases) {
      for (const order of ["type first", "file first"]) {
        const parts = [
          { name: "type", value: type },
          { name: "file", filename, data },
        ];
        const res = await upload(token, order === "type first" ? parts : parts.reverse());
        expect(res.status, `${type} ${filename} ${order}: ${res.text}`).toBe(415);
        expect(res.body.code).toBe("unsupported_media_type");
      }
    }
  });

  it("answers 400 for an unknown type or a missing part, 415 for a non-multipart body, 401 without sign-in", async () => {
    const token = await userToken();
    const unknown = await upload(token, [
      { name: "type", value: "avatar" },
      { name: "file", filename: "a.png", data: tinyPng() },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("validation_failed");
    expect((unknown.body.errors as { path: string }[]).map((e) => e.path)).toEqual(["type"]);

    const noFile = await upload(token, [{ name: "type", value: "product_image" }]);
    expect(noFile.status).toBe(400);
    expect((noFile.body.errors as { path: string }[]).map((e) => e.path)).toEqual(["file"]);
    const noType = await upload(token, [{ name: "file", filename: "a.png", data: tinyPng() }]);
    expect(noType.status).toBe(400);
    expect((noType.body.errors as { path: string }[]).map((e) => e.path)).toEqual(["type"]);

    const json = await api("/api/upload", { token, json: { type: "product_image", file: "x" } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe("unsupported_media_type");
    const noBoundary = await api("/api/upload", { token, method: "POST", body: "x", headers: { "content-type": "multipart/form-data" } });
    expect(noBoundary.status).toBe(415);

    const anonymous = await upload(undefined, [
      { name: "type", value: "product_image" },
      { name: "file", filename: "a.png", data: tinyPng() },
    ]);
    expect(anonymous.status).toBe(401);
  });

  it("refuses logo and banner to AI accounts (403 ai_not_allowed, audited) but lets them upload booth images", async () => {
    const { aiSeller, aiPassword, guardianToken } = await createGuardianWithAi();
    const aiToken = await login(aiSeller.username, aiPassword);
    for (const type of ["logo", "banner"]) {
      for (const order of ["type first", "file first"]) {
        const parts = [
          { name: "type", value: type },
          { name: "file", filename: "logo.png", data: tinyPng() },
        ];
        const res = await upload(aiToken, order === "type first" ? parts : parts.reverse());
        expect(res.status, `${type} ${order}`).toBe(403);
        expect(res.body.code).toBe("ai_not_allowed");
      }
    }
    const booth = await upload(aiToken, [
      { name: "type", value: "boothLogo" },
      { name: "file", filename: "logo.png", data: tinyPng() },
    ]);
    expect(booth.status, booth.text).toBe(201);

    const logs = await api<{ logs: { action: string; success: boolean }[] }>(`/api/ai/audit-logs?aiUserId=${aiSeller.aiUserId}&action=upload.create`, {
      token: guardianToken,
    });
    expect(logs.body.logs.filter((l) => !l.success)).toHaveLength(4);
    expect(logs.body.logs.filter((l) => l.success)).toHaveLength(1);
  });

  it("a human's logo creates the seller profile and becomes its logo; a banner too", async () => {
    const buyer = await createUser("BUYER");
    const token = await login(buyer.username, buyer.password);
    const before = await api<{ user: { sellerProfileId: string | null } }>("/api/auth/me", { token });
    expect(before.body.user.sellerProfileId).toBeNull();

    const logo = await upload(token, [
      { name: "type", value: "logo" },
      { name: "file", filename: "logo.png", data: tinyPng() },
    ]);
    expect(logo.status, logo.text).toBe(201);
    const after = await api<{ user: { sellerProfileId: string | null } }>("/api/auth/me", { token });
    expect(after.body.user.sellerProfileId).toEqual(expect.any(String));

    const banner = await upload(token, [
      { name: "file", filename: "banner.png", data: tinyPng() },
      { name: "type", value: "banner" },
    ]);
    expect(banner.status, banner.text).toBe(201);
    const again = await api<{ user: { sellerProfileId: string | null } }>("/api/auth/me", { token });
    expect(again.body.user.sellerProfileId).toBe(after.body.user.sellerProfileId);
  });

  it("stores a PDF and a CSV as booth documents, served as attachments", async () => {
    const token = await userToken();
    const pdf = minimalPdf();
    const csv = Buffer.from("sku,price,currency\nA-1,12.50,USD\nB-2,7.00,EUR\n", "utf8");
    for (const [filename, data, mime] of [
      ["Katalog 2026 – Preise.pdf", pdf, "application/pdf"],
      ["prices.csv", csv, "text/csv"],
    ] as const) {
      const res = await upload(token, [
        { name: "type", value: "boothDocument" },
        { name: "file", filename, data },
      ]);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ name: filename, size: data.length, mimeType: mime });
      const served = await fetch(`${baseUrl()}${res.body.url as string}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(mime);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      const disposition = served.headers.get("content-disposition") ?? "";
      expect(disposition).toMatch(/^attachment; /);
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
      expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
    }
    // A binary file named .csv is not a CSV.
    const binary = await upload(token, [
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "x.csv", data: Buffer.from([0x61, 0x00, 0x62, 0xff]) },
    ]);
    expect(binary.status).toBe(415);
  });

  it("knows Office files by their content, also when the ZIP's type list comes last", async () => {
    const token = await userToken();
    const cases = [
      ["offer.docx", officeFile("docx"), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      ["deck.pptx", officeFile("pptx"), "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
      ["sheet.xlsx", officeFile("xlsx", { typesLast: true, padding: 300_000 }), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ] as const;
    for (const [filename, data, mime] of cases) {
      const res = await upload(token, [
        { name: "file", filename, data },
        { name: "type", value: "boothDocument" },
      ]);
      expect(res.status, res.text).toBe(201);
      expect(res.body.mimeType).toBe(mime);
    }
    const plainZip = zip([
      ["a.txt", "x".repeat(100)],
      ["pad.bin", Buffer.alloc(100_000)],
    ]);
    const refused = await upload(token, [
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "fake.docx", data: plainZip },
    ]);
    expect(refused.status, refused.text).toBe(415);
  });

  it("sanitizes the file name: no path parts, no .., no NUL or control characters", async () => {
    const token = await userToken();
    const res = await upload(token, [
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "..\\..\\..\\etc/../..\u0000\u0007report\u202e.pdf", data: minimalPdf(), encodeName: true },
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe("report.pdf");
    const raw = await upload(token, [
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "../../../tmp/évil .pdf", data: minimalPdf() },
    ]);
    expect(raw.status, raw.text).toBe(201);
    expect(raw.body.name).toBe("évil .pdf");
  });

  it("answers 404 for unknown keys and anything outside the generated form", async () => {
    for (const path of [
      "/uploads/ab/0193c4d2-7b1e-7c3a-9f4e-2a6b8c0d1e3f",
      "/uploads/..%2F..%2Fetc%2Fpasswd",
      "/uploads/ab/../../package.json",
      "/uploads/x",
      "/uploads/ab/cd/ef",
    ]) {
      const res = await fetch(`${baseUrl()}${path}`);
      expect(res.status, path).toBe(404);
    }
  });
});
