// Contract 9.1: an Idempotency-Key replays the first answer on every POST, state transitions
// included. A retried transition answers what the first one did (same status, same body, marked
// replayed) without acting again: no second audit row, no second reply; the same call without a
// key then acts afresh and is refused by the state the first one left (409 `invalid_state`).
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, createGuardianWithAi, createProduct, createSeller, createUser, login, unique } from "../support/api";
import { minimalPdf, multipart, tinyPng, type Part } from "../support/multipart";
import { createTask, expectOk, heldOrder, placeOrder } from "../support/world";

type Step = {
  path: string;
  token: string;
  json?: unknown;
  /** The AI account acting, whose audit log must show the action once. */
  audited?: { aiUserId: string; action: string };
  /** A side effect that must have happened exactly once. */
  count?: () => Promise<number>;
  /** A verb that may be repeated (a second reply) answers a keyless repeat with this instead of 409. */
  repeatable?: number;
};

let w: {
  guardianToken: string;
  aiBuyer: { id: string; token: string };
  aiSeller: { id: string; token: string };
  seller: string;
  buyer: string;
  claimer: string;
  product: string;
  guardianProduct: string;
};

beforeAll(async () => {
  const g = await createGuardianWithAi();
  const seller = await createSeller();
  const buyer = await createUser("BUYER");
  const claimer = await createUser("BUYER");
  w = {
    guardianToken: g.guardianToken,
    aiBuyer: { id: g.aiBuyer.aiUserId, token: await login(g.aiBuyer.username, g.aiPassword) },
    aiSeller: { id: g.aiSeller.aiUserId, token: await login(g.aiSeller.username, g.aiPassword) },
    seller: seller.token,
    buyer: await login(buyer.username, buyer.password),
    claimer: await login(claimer.username, claimer.password),
    product: (await createProduct(seller.token, { price: 10, moq: 1 })).id,
    guardianProduct: (await createProduct(g.guardianToken, { price: 10, moq: 1 })).id,
  };
});

async function inquiry(productId: string): Promise<string> {
  const body = await expectOk<{ inquiry: { id: string } }>(
    "inquiry",
    api("/api/buyer/inquiries", { token: w.buyer, json: { productId, message: "How many?" } }),
  );
  return body.inquiry.id;
}

async function auditCount(aiUserId: string, action: string): Promise<number> {
  const page = await expectOk<{ total: number }>(
    "audit",
    api(`/api/ai/audit-logs?aiUserId=${aiUserId}&action=${encodeURIComponent(action)}&success=true`, { token: w.guardianToken }),
  );
  return page.total;
}

const post = (s: Step, key?: string) => api(s.path, { method: "POST", token: s.token, json: s.json, headers: key ? { "idempotency-key": key } : {} });

const CASES: Record<string, () => Promise<Step>> = {
  "order confirm (AI seller)": async () => ({
    path: `/api/orders/${await placeOrder(w.buyer, w.guardianProduct)}/confirm`,
    token: w.aiSeller.token,
    audited: { aiUserId: w.aiSeller.id, action: "order.fulfill" },
  }),
  "order fulfill (AI seller)": async () => {
    const id = await placeOrder(w.buyer, w.guardianProduct);
    await expectOk("confirm", api(`/api/orders/${id}/confirm`, { method: "POST", token: w.guardianToken }));
    return { path: `/api/orders/${id}/fulfill`, token: w.aiSeller.token, audited: { aiUserId: w.aiSeller.id, action: "order.fulfill" } };
  },
  "order cancel (AI buyer)": async () => ({
    path: `/api/orders/${await placeOrder(w.aiBuyer.token, w.product)}/cancel`,
    token: w.aiBuyer.token,
    audited: { aiUserId: w.aiBuyer.id, action: "order.view" },
  }),
  "order cancel (store)": async () => ({ path: `/api/orders/${await placeOrder(w.buyer, w.product)}/cancel`, token: w.seller }),
  "inquiry respond (AI seller)": async () => {
    const id = await inquiry(w.guardianProduct);
    return {
      path: `/api/seller/inquiries/${id}/respond`,
      token: w.aiSeller.token,
      json: { message: "Any quantity" },
      repeatable: 201,
      audited: { aiUserId: w.aiSeller.id, action: "inquiry.respond" },
      count: async () => {
        const inbox = await expectOk<{ inquiries: { id: string; replies: unknown[] }[] }>(
          "inbox",
          api("/api/seller/inquiries?limit=100", { token: w.guardianToken }),
        );
        return inbox.inquiries.find((i) => i.id === id)!.replies.length;
      },
    };
  },
  "inquiry close": async () => ({ path: `/api/buyer/inquiries/${await inquiry(w.product)}/close`, token: w.buyer }),
  "requirement close (AI buyer)": async () => {
    const req = await expectOk<{ requirement: { id: string } }>(
      "requirement",
      api("/api/buyer/requirements", { token: w.aiBuyer.token, json: { title: `Need ${unique()}` } }),
    );
    return {
      path: `/api/buyer/requirements/${req.requirement.id}/close`,
      token: w.aiBuyer.token,
      audited: { aiUserId: w.aiBuyer.id, action: "inquiry.create" },
    };
  },
  "task claim": async () => ({ path: `/api/marketplace/tasks/${await createTask(w.buyer)}/claim`, token: w.claimer }),
  "task complete": async () => {
    const id = await createTask(w.buyer);
    await expectOk("claim", api(`/api/marketplace/tasks/${id}/claim`, { method: "POST", token: w.claimer }));
    return { path: `/api/marketplace/tasks/${id}/complete`, token: w.claimer, json: { result: "Done" } };
  },
  "task cancel": async () => ({ path: `/api/marketplace/tasks/${await createTask(w.buyer)}/cancel`, token: w.buyer }),
  "approval approve": async () => ({ path: `/api/ai/approvals/${(await heldOrder(w.aiBuyer.token, w.product)).approval}/approve`, token: w.guardianToken }),
  "approval reject": async () => ({ path: `/api/ai/approvals/${(await heldOrder(w.aiBuyer.token, w.product)).approval}/reject`, token: w.guardianToken }),
};

describe("a retried transition with the same Idempotency-Key replays the first answer", () => {
  it.each(Object.keys(CASES))("%s", async (name) => {
    const step = await CASES[name]!();
    const audited = step.audited ? await auditCount(step.audited.aiUserId, step.audited.action) : 0;
    const key = `retry-${unique()}`;
    const first = await post(step, key);
    expect(first.status, first.text).toBeLessThan(300);
    const again = await post(step, key);
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    if (step.audited) expect(await auditCount(step.audited.aiUserId, step.audited.action)).toBe(audited + 1);
    if (step.count) expect(await step.count()).toBe(1);
    // Without the key the same call acts afresh, and the state it left refuses it.
    const fresh = await post(step);
    if (step.repeatable) expect(fresh.status).toBe(step.repeatable);
    else expect(fresh.body).toMatchObject({ status: 409, code: "invalid_state" });
  });

  it("replays a refusal too, and refuses the key for another transition", async () => {
    const id = await placeOrder(w.buyer, w.product);
    await expectOk("cancel", api(`/api/orders/${id}/cancel`, { method: "POST", token: w.buyer }));
    const key = `retry-${unique()}`;
    const step = { path: `/api/orders/${id}/confirm`, token: w.seller };
    const refused = await post(step, key);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "invalid_state", detail: expect.stringContaining("cancelled") });
    const replayed = await post(step, key);
    expect(replayed.text).toBe(refused.text);
    expect((await post({ ...step, path: `/api/orders/${id}/fulfill` }, key)).status).toBe(422);
  });
});

/** One multipart body, kept as bytes so a retry sends exactly what the first try did. */
async function uploadBody(parts: Part[]) {
  const { contentType, body } = multipart(parts);
  const chunks: Uint8Array[] = [];
  for await (const c of body()) chunks.push(c);
  return { contentType, bytes: Buffer.concat(chunks) };
}

describe("POST /api/upload with an Idempotency-Key", () => {
  const send = async (b: { contentType: string; bytes: Buffer }, token: string, key: string) => {
    const res = await fetch(`${baseUrl()}/api/upload`, {
      method: "POST",
      headers: { "content-type": b.contentType, authorization: `Bearer ${token}`, "idempotency-key": key },
      body: new Uint8Array(b.bytes),
    });
    return { status: res.status, text: await res.text(), replayed: res.headers.get("idempotent-replayed") };
  };

  it("replays the first answer for the same body (one file stored) and refuses another body with 422", async () => {
    const pdf = await uploadBody([
      { name: "type", value: "boothDocument" },
      { name: "file", filename: "brochure.pdf", data: minimalPdf(), contentType: "application/pdf" },
    ]);
    const key = `upload-${unique()}`;
    const first = await send(pdf, w.seller, key);
    expect(first.status, first.text).toBe(201);
    const again = await send(pdf, w.seller, key);
    expect(again).toMatchObject({ status: 201, text: first.text, replayed: "true" });
    const other = await uploadBody([
      { name: "type", value: "product_image" },
      { name: "file", filename: "p.png", data: tinyPng(), contentType: "image/png" },
    ]);
    expect((await send(other, w.seller, key)).status).toBe(422);
    // Without a key the same bytes are a second file at another address.
    const fresh = await send(pdf, w.seller, `upload-${unique()}`);
    expect(fresh.status).toBe(201);
    expect(JSON.parse(fresh.text).url).not.toBe(JSON.parse(first.text).url);
  });

  it("answers a retried refusal the same (kept when the body was read, else judged afresh)", async () => {
    const logo = await uploadBody([
      { name: "type", value: "logo" },
      { name: "file", filename: "l.png", data: tinyPng(), contentType: "image/png" },
    ]);
    const key = `upload-${unique()}`;
    const refused = await send(logo, w.aiSeller.token, key);
    expect(refused.status).toBe(403);
    const again = await send(logo, w.aiSeller.token, key);
    expect(again.status).toBe(403);
  });
});
