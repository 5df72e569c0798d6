// The fixture world of the authorization matrix and the fuzzer: one account per caller class and
// private records owned by known parties, created once through the API.
import { randomBytes } from "node:crypto";
import { defaultPermissions, type Permission } from "@/lib/ai/permissions";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login, someCategory, unique } from "./api";
import { baseUrl } from "./api";
import { minimalPdf, postMultipart, tinyPng } from "./multipart";

export const CALLERS = ["anonymous", "buyer", "seller", "otherSeller", "guardian", "aiBuyer", "aiSeller", "otherAi", "disabledAi", "admin"] as const;
export type Caller = (typeof CALLERS)[number];
export const AI_CALLERS: readonly Caller[] = ["aiBuyer", "aiSeller", "otherAi", "disabledAi"];

/** Permissions chosen for the AI callers on top of their role defaults (set by buildWorld). */
export const CHOSEN_PERMISSIONS: { caller: "aiSeller" | "otherAi"; permission: Permission; isAllowed: boolean }[] = [
  { caller: "aiSeller", permission: "product.delete", isAllowed: true },
  { caller: "aiSeller", permission: "store.profile.edit", isAllowed: true },
  { caller: "otherAi", permission: "chat.read", isAllowed: false },
];

/** Whether an AI caller holds a permission in the world. */
export function aiHolds(caller: Caller, permission: Permission): boolean {
  const chosen = CHOSEN_PERMISSIONS.find((c) => c.caller === caller && c.permission === permission);
  if (chosen) return chosen.isAllowed;
  return defaultPermissions(caller === "aiSeller" ? "AI_SELLER" : "AI_BUYER")[permission];
}

export type Account = { id: string; username: string; password: string; token: string; apiKey: string; apiKeyId: string };

export type World = {
  accounts: Record<Exclude<Caller, "anonymous">, Account>;
  /** Permissions chosen for the AI callers, on top of their role defaults. */
  categoryId: string;
  sellerStoreId: string;
  product: string;
  draftBooth: string;
  publishedBooth: string;
  brochure: string;
  documentUrl: string;
  exhibition: string;
  order: string;
  confirmedOrder: string;
  heldOrder: string;
  approval: string;
  inquiry: string;
  requirement: string;
  /** A store's open quote (seller's product) on the buyer's requirement. */
  offer: string;
  conversation: string;
  task: string;
  claimedTask: string;
  buyerKey: string;
};

/** Records only some callers may see: their ids must never appear in anyone else's answers. */
export function privateRecords(w: World): { name: string; id: string; visibleTo: Caller[] }[] {
  return [
    { name: "draft booth", id: w.draftBooth, visibleTo: ["seller", "admin"] },
    { name: "order", id: w.order, visibleTo: ["buyer", "seller"] },
    { name: "confirmed order", id: w.confirmedOrder, visibleTo: ["buyer", "seller"] },
    { name: "held order", id: w.heldOrder, visibleTo: ["aiBuyer", "guardian"] },
    { name: "approval", id: w.approval, visibleTo: ["aiBuyer", "guardian"] },
    { name: "inquiry", id: w.inquiry, visibleTo: ["buyer", "seller"] },
    { name: "offer", id: w.offer, visibleTo: ["buyer", "seller"] },
    { name: "conversation", id: w.conversation, visibleTo: ["buyer", "seller"] },
    { name: "API key", id: w.buyerKey, visibleTo: ["buyer"] },
  ];
}

export const aiPassword = () => `ai-${randomBytes(6).toString("hex")}`;

async function ok<T = Record<string, unknown>>(label: string, p: Promise<{ status: number; body: unknown; text: string }>, expected = [200, 201]): Promise<T> {
  const res = await p;
  if (!expected.includes(res.status)) throw new Error(`fixture ${label}: ${res.status} ${res.text}`);
  return res.body as T;
}

export async function apiKeyFor(token: string): Promise<{ secret: string; id: string }> {
  const res = await ok<{ key: { id: string }; secret: string }>("api key", api("/api/keys", { token, json: { name: unique("k") } }));
  return { secret: res.secret, id: res.key.id };
}

async function account(user: { id: string; username: string; password: string }, token?: string): Promise<Account> {
  const t = token ?? (await login(user.username, user.password));
  const key = await apiKeyFor(t);
  return { id: user.id, username: user.username, password: user.password, token: t, apiKey: key.secret, apiKeyId: key.id };
}

export async function uploadDocument(token: string): Promise<string> {
  const res = await postMultipart(`${baseUrl()}/api/upload`, token, [
    { name: "type", value: "boothDocument" },
    { name: "file", filename: "brochure.pdf", data: minimalPdf(), contentType: "application/pdf" },
  ]);
  if (res.status !== 201) throw new Error(`fixture upload: ${res.status} ${res.text}`);
  return String(res.body.url);
}

export async function uploadImage(token: string) {
  return postMultipart(`${baseUrl()}/api/upload`, token, [
    { name: "type", value: "product_image" },
    { name: "file", filename: "p.png", data: tinyPng(), contentType: "image/png" },
  ]);
}

export async function buildWorld(): Promise<World> {
  const category = (await someCategory()).leaf.id;
  const [sellerS, buyerU, otherS, g, g2] = await Promise.all([
    createSeller(),
    createUser("BUYER"),
    createSeller(),
    createGuardianWithAi(),
    createGuardianWithAi(),
  ]);
  const adminUser = { id: "", username: "test_admin", password: "test-admin-password" };
  const [seller, buyer, otherSeller, guardian, admin] = await Promise.all([
    account({ ...sellerS.user }, sellerS.token),
    account(buyerU),
    account({ ...otherS.user }, otherS.token),
    account(g.guardian, g.guardianToken),
    account(adminUser),
  ]);
  admin.id = (await ok<{ user: { id: string } }>("admin me", api("/api/auth/me", { token: admin.token }))).user.id;
  const [aiBuyer, aiSeller, otherAi, disabledAi] = await Promise.all([
    account({ id: g.aiBuyer.aiUserId, username: g.aiBuyer.username, password: g.aiPassword }),
    account({ id: g.aiSeller.aiUserId, username: g.aiSeller.username, password: g.aiPassword }),
    account({ id: g2.aiBuyer.aiUserId, username: g2.aiBuyer.username, password: g2.aiPassword }),
    account({ id: g2.aiSeller.aiUserId, username: g2.aiSeller.username, password: g2.aiPassword }),
  ]);
  for (const c of CHOSEN_PERMISSIONS) {
    const [aiUserId, token] = c.caller === "aiSeller" ? [aiSeller.id, guardian.token] : [otherAi.id, g2.guardianToken];
    await ok("permission", api("/api/ai/permissions", { method: "PUT", token, json: { aiUserId, permission: c.permission, isAllowed: c.isAllowed } }));
  }
  await ok("disable", api(`/api/ai/accounts?aiUserId=${disabledAi.id}`, { method: "DELETE", token: g2.guardianToken }));

  const product = (await createProduct(seller.token, { keywords: ["matrix"], price: 10, currency: "USD", category })).id;
  const booth = async (n: string) =>
    (await ok<{ booth: { id: string } }>("booth", api("/api/booths", { token: seller.token, json: { name: `${n} ${unique()}` } }))).booth.id;
  const [draftBooth, publishedBooth] = await Promise.all([booth("Draft"), booth("Published")]);
  await ok("publish", api("/api/booths", { method: "PUT", token: seller.token, json: { boothId: publishedBooth, isPublished: true } }));
  const documentUrl = await uploadDocument(seller.token);
  const brochure = (
    await ok<{ brochure: { id: string } }>("brochure", api("/api/seller/brochures", { token: seller.token, json: { title: "Catalog", fileUrl: documentUrl } }))
  ).brochure.id;
  const exhibition = (
    await ok<{ exhibition: { id: string } }>(
      "exhibition",
      api("/api/exhibitions", { token: admin.token, json: { name: `Expo ${unique()}`, startsAt: "2030-01-01T00:00:00Z", endsAt: "2030-01-05T00:00:00Z" } }),
    )
  ).exhibition.id;

  const [order, confirmedOrder, inquiry, requirement, conversation, task, claimedTask] = await Promise.all([
    placeOrder(buyer.token, product),
    placeOrder(buyer.token, product),
    ok<{ inquiry: { id: string } }>(
      "inquiry",
      api("/api/buyer/inquiries", { token: buyer.token, json: { productId: product, message: "Matrix inquiry" } }),
    ).then((b) => b.inquiry.id),
    ok<{ requirement: { id: string } }>("requirement", api("/api/buyer/requirements", { token: buyer.token, json: { title: "Need 1000 widgets" } })).then(
      (b) => b.requirement.id,
    ),
    ok<{ conversation: { id: string } }>("message", api("/api/chat/messages", { token: buyer.token, json: { to: seller.id, content: "Hello store" } })).then(
      (b) => b.conversation.id,
    ),
    createTask(buyer.token),
    createTask(buyer.token),
  ]);
  await ok("confirm", api(`/api/orders/${confirmedOrder}/confirm`, { method: "POST", token: seller.token }));
  await ok("claim", api(`/api/marketplace/tasks/${claimedTask}/claim`, { method: "POST", token: otherSeller.token }));
  const held = await heldOrder(aiBuyer.token, product);
  const offer = await freshOffer(buyer.token, seller.token, product, requirement);

  return {
    accounts: { buyer, seller, otherSeller, guardian, aiBuyer, aiSeller, otherAi, disabledAi, admin },
    categoryId: category,
    sellerStoreId: sellerS.storeId,
    product,
    draftBooth,
    publishedBooth,
    brochure,
    documentUrl,
    exhibition,
    order,
    confirmedOrder,
    heldOrder: held.order,
    approval: held.approval,
    inquiry,
    requirement,
    offer,
    conversation,
    task,
    claimedTask,
    buyerKey: (await apiKeyFor(buyer.token)).id,
  };
}

export async function placeOrder(token: string, productId: string): Promise<string> {
  return (await ok<{ order: { id: string } }>("order", api("/api/orders", { token, json: { productId, quantity: 1 } }))).order.id;
}

/** An AI_BUYER order above the default approval threshold (5000): held for the guardian. */
export async function heldOrder(aiToken: string, productId: string): Promise<{ order: string; approval: string }> {
  const body = await ok<{ order: { id: string; status: string }; pendingApproval?: { id: string } }>(
    "held order",
    api("/api/orders", { token: aiToken, json: { productId, quantity: 600 } }),
  );
  if (body.order.status !== "pending_guardian_approval" || !body.pendingApproval) throw new Error(`fixture held order: ${JSON.stringify(body)}`);
  return { order: body.order.id, approval: body.pendingApproval.id };
}

/** A store's open quote for `productId` on a requirement of the buyer (a new one unless given). */
export async function freshOffer(buyerToken: string, sellerToken: string, productId: string, requirementId?: string): Promise<string> {
  const req =
    requirementId ??
    (await ok<{ requirement: { id: string } }>("requirement", api("/api/buyer/requirements", { token: buyerToken, json: { title: "Need 10 widgets" } })))
      .requirement.id;
  const body = { unitPrice: 9, currency: "USD", quantity: 10, productId };
  return (await ok<{ offer: { id: string } }>("offer", api(`/api/requirements/${req}/quotes`, { token: sellerToken, json: body }))).offer.id;
}

export async function createTask(token: string): Promise<string> {
  return (await ok<{ task: { id: string } }>("task", api("/api/marketplace/tasks", { token, json: { title: `Task ${unique()}` } }))).task.id;
}

export { ok as expectOk };
