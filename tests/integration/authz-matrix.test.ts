// The authorization matrix (OWASP API1/API5): every operation of the registry x every caller class,
// expected statuses from one declarative table. The generic layer (anonymous, disabled account,
// human-only, admin-only, missing AI permission) is derived from each operation's declared access
// and permission; the table adds what the record decides (owner, store, other tenant).
//
// Checks beyond the status: refused calls change no row of any table (checksums before/after, the
// refusal audit rows of AI callers excepted and counted); a 404 for someone else's record answers
// exactly as for a record that does not exist; ids of private records never appear in the answers
// of callers who may not see them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "@/lib/api/operation";
import { allOperations } from "@/lib/api/operations/list";
import { api, createUser, login, unique, useServer } from "../support/api";
import { postMultipart, tinyPng } from "../support/multipart";
import { ResponseMismatch } from "../support/response-check";
import { changedTables, startOwnServer, tableChecksums, type OwnServer, type Query } from "../support/own-server";
import {
  AI_CALLERS,
  aiHolds,
  apiKeyFor,
  buildWorld,
  CALLERS,
  createTask,
  expectOk,
  freshOffer,
  heldOrder,
  placeOrder,
  privateRecords,
  type Caller,
  type World,
} from "../support/world";

type Fresh = { id?: string; token?: string; data?: string };
type Row = {
  /** The request path (with query); `id` replaces the fixture record for allowed calls. */
  path: (w: World, id?: string) => string;
  body?: (w: World, c: Caller, fresh: Fresh) => unknown;
  form?: Record<string, string>;
  multipart?: true;
  headers?: Record<string, string>;
  /** Credential the call carries: the caller's JWT (default) or its API key (the tool server). */
  via?: "apiKey";
  /** Expected statuses of callers that pass the generic layer... */
  expect?: Partial<Record<Caller, number>>;
  /** ...and of the others that pass it (default 404: someone else's record). */
  other?: number;
  /** Before an allowed call: a fresh record or credential, so allowed calls do not interfere. */
  before?: (w: World, c: Caller) => Promise<Fresh>;
  after?: (w: World, c: Caller, fresh: Fresh) => Promise<void>;
};

const STORES = { seller: 200, otherSeller: 200, guardian: 200, aiSeller: 200 } as const;
const NO_STORE = 409; // seller_profile_required: the caller acts for no store

let w: World;
const tok = (c: Caller) => (c === "anonymous" ? undefined : w.accounts[c].token);

const ROWS: Record<string, Row> = {
  // Accounts and sign-in
  "POST /api/accounts/create": {
    path: () => "/api/accounts/create",
    body: () => ({ email: `${unique()}@example.test`, username: unique("m_"), password: "long-enough-1", role: "BUYER" }),
    other: 201,
  },
  "POST /api/auth/login": {
    path: () => "/api/auth/login",
    body: () => ({ email: w.accounts.buyer.username, password: w.accounts.buyer.password }),
    other: 200,
  },
  "POST /api/auth/delegate-login": {
    path: () => "/api/auth/delegate-login",
    body: () => ({ email: w.accounts.buyer.username, password: w.accounts.buyer.password, restrictTo: "NON_ADMIN" }),
    other: 200,
  },
  "POST /api/auth/logout": {
    path: () => "/api/auth/logout",
    other: 200,
    before: async (_w, c) => ({ token: await login(w.accounts[c as "buyer"].username, w.accounts[c as "buyer"].password) }),
  },
  "GET /api/auth/me": { path: () => "/api/auth/me", other: 200 },
  "POST /api/auth/password-reset": { path: () => "/api/auth/password-reset", body: () => ({ email: `${unique()}@example.test` }), other: 202 },
  // A made-up link: everyone who passes the generic layer hears 400 token_invalid.
  "POST /api/auth/password-reset/confirm": {
    path: () => "/api/auth/password-reset/confirm",
    body: () => ({ token: unique("made-up-"), password: "long-enough-1" }),
    other: 400,
  },
  "POST /api/auth/verify-email": { path: () => "/api/auth/verify-email", body: () => ({ token: unique("made-up-") }), other: 400 },
  "POST /api/auth/verify-email/resend": { path: () => "/api/auth/verify-email/resend", other: 202 },
  "POST /api/user/password": {
    path: () => "/api/user/password",
    body: (_w, c, f) => ({ currentPassword: c === "anonymous" ? "long-enough-1" : w.accounts[c].password, newPassword: f.data ?? "long-enough-2" }),
    // An AI account's password is its guardian's to set (contract 9.1).
    expect: { aiBuyer: 403, aiSeller: 403, otherAi: 403 },
    other: 200,
    before: async () => ({ data: `pw-${unique()}` }),
    after: async (_w, c, f) => {
      const a = w.accounts[c as "buyer"];
      a.password = f.data!;
      a.token = await login(a.username, a.password);
      const key = await apiKeyFor(a.token);
      [a.apiKey, a.apiKeyId] = [key.secret, key.id];
    },
  },
  "GET /api/auth/csrf": { path: () => "/api/auth/csrf", other: 200 },
  "POST /api/auth/callback/credentials": { path: () => "/api/auth/callback/credentials", form: { email: "nobody", password: "x", json: "true" }, other: 200 },
  "GET /api/auth/session": { path: () => "/api/auth/session", other: 200 },
  "POST /api/auth/signout": { path: () => "/api/auth/signout", form: { json: "true" }, other: 200 },
  "GET /api/auth/providers": { path: () => "/api/auth/providers", other: 200 },
  "GET /api/health": { path: () => "/api/health", other: 200 },
  "GET /api/openapi": { path: () => "/api/openapi", other: 200 },
  "GET /api/user/profile": { path: () => "/api/user/profile", other: 200 },
  "PUT /api/user/profile": { path: () => "/api/user/profile", body: () => ({ country: "DE" }), other: 200 },

  // Guardian endpoints: only the guardian of the AI account or approval
  "POST /api/ai/accounts": {
    path: () => "/api/ai/accounts",
    body: () => ({ role: "AI_BUYER", password: "long-enough-1" }),
    expect: { guardian: 409 },
    other: 201,
  },
  "GET /api/ai/accounts": { path: () => "/api/ai/accounts", other: 200 },
  "PATCH /api/ai/accounts": {
    path: () => "/api/ai/accounts",
    body: () => ({ aiUserId: w.accounts.aiBuyer.id, orderApprovalThreshold: 5000 }),
    expect: { guardian: 200 },
  },
  "DELETE /api/ai/accounts": {
    path: () => `/api/ai/accounts?aiUserId=${w.accounts.aiBuyer.id}`,
    expect: { guardian: 200 },
    after: async () => {
      // Re-enable the AI_BUYER and sign it in again: disabling ended its sessions and keys.
      await expectOk(
        "re-enable",
        api("/api/ai/accounts", { method: "PATCH", token: w.accounts.guardian.token, json: { aiUserId: w.accounts.aiBuyer.id, disabled: false } }),
      );
      const a = w.accounts.aiBuyer;
      a.token = await login(a.username, a.password);
      const key = await apiKeyFor(a.token);
      [a.apiKey, a.apiKeyId] = [key.secret, key.id];
    },
  },
  "PUT /api/ai/permissions": {
    path: () => "/api/ai/permissions",
    body: () => ({ aiUserId: w.accounts.aiBuyer.id, permission: "product.browse", isAllowed: true }),
    expect: { guardian: 200 },
  },
  "GET /api/ai/audit-logs": { path: () => `/api/ai/audit-logs?aiUserId=${w.accounts.aiBuyer.id}`, expect: { guardian: 200 } },
  // An AI account lists its own approvals (the leak check holds it to them); only humans decide them.
  "GET /api/ai/approvals": { path: () => "/api/ai/approvals", other: 200 },
  "GET /api/ai/me": { path: () => "/api/ai/me", expect: { buyer: 403, seller: 403, otherSeller: 403, guardian: 403, admin: 403 }, other: 200 },
  "POST /api/ai/approvals/{id}/approve": {
    path: (w, id = w.approval) => `/api/ai/approvals/${id}/approve`,
    expect: { guardian: 200 },
    before: async () => ({ id: (await heldOrder(w.accounts.aiBuyer.token, w.product)).approval }),
  },
  "POST /api/ai/approvals/{id}/reject": {
    path: (w, id = w.approval) => `/api/ai/approvals/${id}/reject`,
    expect: { guardian: 200 },
    before: async () => ({ id: (await heldOrder(w.accounts.aiBuyer.token, w.product)).approval }),
  },

  // Booths
  "PUT /api/booths": {
    path: () => "/api/booths",
    body: () => ({ boothId: w.draftBooth, isPublished: false }),
    expect: { seller: 200, buyer: NO_STORE, admin: NO_STORE },
  },
  "POST /api/booths": {
    path: () => "/api/booths",
    body: () => ({ name: `Booth ${unique()}` }),
    expect: { seller: 201, otherSeller: 201, guardian: 201, aiSeller: 201 },
    other: NO_STORE,
  },
  // A draft booth: its store and administrators only (contract 9.1); anyone else 404.
  "GET /api/booths/{id}": { path: (w) => `/api/booths/${w.draftBooth}`, expect: { seller: 200, admin: 200 } },
  "PUT /api/booths/{id}": { path: (w) => `/api/booths/${w.draftBooth}`, body: () => ({ description: "Decorated" }), expect: { seller: 200 } },
  "GET /api/public/booths": { path: () => "/api/public/booths", other: 200 },
  "GET /api/booths": { path: () => "/api/booths", other: 200 },

  // Catalog
  "GET /api/products": { path: () => "/api/products", other: 200 },
  "GET /api/products/search": { path: () => "/api/products/search?q=matrix", other: 200 },
  "GET /api/products/{id}": { path: (w) => `/api/products/${w.product}`, other: 200 },
  "POST /api/products": {
    path: () => "/api/products",
    body: () => ({ title: `Product ${unique()}`, price: 5, currency: "USD", category: w.categoryId, moq: 1, keywords: ["matrix"] }),
    expect: { seller: 201, otherSeller: 201, guardian: 201, aiSeller: 201 },
    other: NO_STORE,
  },
  "PUT /api/products/{id}": { path: (w) => `/api/products/${w.product}`, body: () => ({ title: "Renamed product" }), expect: { seller: 200 } },
  "PATCH /api/products/{id}": { path: (w) => `/api/products/${w.product}`, body: () => ({ acceptsOEM: true }), expect: { seller: 200 } },
  "DELETE /api/products/{id}": {
    path: (w, id = w.product) => `/api/products/${id}`,
    expect: { seller: 200 },
    before: async () => ({
      id: (
        await expectOk<{ product: { id: string } }>(
          "product",
          api("/api/products", { token: w.accounts.seller.token, json: { title: "Doomed", price: 1, currency: "USD", category: w.categoryId, moq: 1 } }),
        )
      ).product.id,
    }),
  },
  "GET /api/categories": { path: () => "/api/categories", other: 200 },
  "GET /api/categories/tree": { path: () => "/api/categories/tree", other: 200 },
  "GET /api/exhibitions": { path: () => "/api/exhibitions", other: 200 },
  "GET /api/exhibitions/{id}": { path: (w) => `/api/exhibitions/${w.exhibition}`, other: 200 },
  "POST /api/exhibitions": {
    path: () => "/api/exhibitions",
    body: () => ({ name: `Expo ${unique()}`, startsAt: "2031-01-01T00:00:00Z", endsAt: "2031-01-02T00:00:00Z" }),
    other: 201,
  },
  "GET /api/stores/{id}": { path: (w) => `/api/stores/${w.sellerStoreId}`, other: 200 },
  "GET /api/sellers/public": { path: () => "/api/sellers/public", other: 200 },
  "GET /api/sellers": { path: () => "/api/sellers", other: 200 },
  "GET /api/sellers/{id}": { path: (w) => `/api/sellers/${w.sellerStoreId}`, other: 200 },
  "POST /api/upload": { path: () => "/api/upload", multipart: true, other: 201 },

  // Inquiries and requirements
  "POST /api/buyer/inquiries": {
    path: () => "/api/buyer/inquiries",
    body: () => ({ productId: w.product, message: "Matrix inquiry" }),
    expect: { seller: 403 },
    other: 201,
  },
  "GET /api/buyer/inquiries": { path: () => "/api/buyer/inquiries", other: 200 },
  "POST /api/buyer/inquiries/{id}/close": {
    path: (w, id = w.inquiry) => `/api/buyer/inquiries/${id}/close`,
    expect: { buyer: 200 },
    before: async () => ({ id: await freshInquiry() }),
  },
  "GET /api/seller/inquiries": { path: () => "/api/seller/inquiries", expect: STORES, other: NO_STORE },
  "POST /api/seller/inquiries/{id}/respond": {
    path: (w, id = w.inquiry) => `/api/seller/inquiries/${id}/respond`,
    body: () => ({ message: "We can do that" }),
    expect: { seller: 201 },
    before: async () => ({ id: await freshInquiry() }),
  },
  "POST /api/buyer/requirements": { path: () => "/api/buyer/requirements", body: () => ({ title: "Need widgets" }), other: 201 },
  "GET /api/buyer/requirements": { path: () => "/api/buyer/requirements", other: 200 },
  "POST /api/buyer/requirements/{id}/close": {
    path: (w, id = w.requirement) => `/api/buyer/requirements/${id}/close`,
    expect: { buyer: 200 },
    before: async () => ({
      id: (
        await expectOk<{ requirement: { id: string } }>(
          "requirement",
          api("/api/buyer/requirements", { token: w.accounts.buyer.token, json: { title: "Need gears" } }),
        )
      ).requirement.id,
    }),
  },
  // Stores only (contract 9.1): everyone else 403 seller_profile_required.
  "GET /api/requirements": { path: () => "/api/requirements", expect: STORES, other: 403 },

  // Offers (contract 9.4): the quote's thread is the buyer's and the store's only.
  "POST /api/requirements/{id}/quotes": {
    path: (w) => `/api/requirements/${w.requirement}/quotes`,
    body: () => ({ unitPrice: 9, currency: "USD", quantity: 10 }),
    expect: { seller: 201, otherSeller: 201, guardian: 201, aiSeller: 201 },
    other: NO_STORE,
  },
  "GET /api/buyer/requirements/{id}/quotes": { path: (w) => `/api/buyer/requirements/${w.requirement}/quotes`, expect: { buyer: 200 } },
  "GET /api/offers": { path: () => "/api/offers", other: 200 },
  "GET /api/offers/{id}": { path: (w) => `/api/offers/${w.offer}`, expect: { buyer: 200, seller: 200 } },
  // Only the side that received an offer answers it: the store's own quote is 403 to the store.
  "POST /api/offers/{id}/counter": {
    path: (w, id = w.offer) => `/api/offers/${id}/counter`,
    body: () => ({ unitPrice: 8.5, quantity: 10 }),
    expect: { buyer: 201, seller: 403 },
    before: async () => ({ id: await freshOffer(w.accounts.buyer.token, w.accounts.seller.token, w.product) }),
  },
  "POST /api/offers/{id}/decline": {
    path: (w, id = w.offer) => `/api/offers/${id}/decline`,
    expect: { buyer: 200, seller: 403 },
    before: async () => ({ id: await freshOffer(w.accounts.buyer.token, w.accounts.seller.token, w.product) }),
  },
  "POST /api/offers/{id}/accept": {
    path: (w, id = w.offer) => `/api/offers/${id}/accept`,
    expect: { buyer: 201, seller: 403 },
    before: async () => ({ id: await freshOffer(w.accounts.buyer.token, w.accounts.seller.token, w.product) }),
  },

  // Orders
  "POST /api/orders": { path: () => "/api/orders", body: () => ({ productId: w.product, quantity: 1 }), expect: { seller: 403 }, other: 201 },
  "GET /api/orders": { path: () => "/api/orders", other: 200 },
  "GET /api/orders/{id}": { path: (w) => `/api/orders/${w.order}`, expect: { buyer: 200, seller: 200 } },
  "POST /api/orders/{id}/confirm": {
    path: (w, id = w.order) => `/api/orders/${id}/confirm`,
    expect: { seller: 200, buyer: 403 },
    before: async () => ({ id: await placeOrder(w.accounts.buyer.token, w.product) }),
  },
  "POST /api/orders/{id}/fulfill": {
    path: (w, id = w.confirmedOrder) => `/api/orders/${id}/fulfill`,
    expect: { seller: 200, buyer: 403 },
    before: async () => {
      const id = await placeOrder(w.accounts.buyer.token, w.product);
      await expectOk("confirm", api(`/api/orders/${id}/confirm`, { method: "POST", token: w.accounts.seller.token }));
      return { id };
    },
  },
  "POST /api/orders/{id}/cancel": {
    path: (w, id = w.order) => `/api/orders/${id}/cancel`,
    expect: { buyer: 200, seller: 200 },
    before: async () => ({ id: await placeOrder(w.accounts.buyer.token, w.product) }),
  },

  // Community
  "POST /api/shoutout": { path: () => "/api/shoutout", body: () => ({ content: "Matrix shoutout" }), other: 201 },
  "GET /api/shoutout": { path: () => "/api/shoutout", other: 200 },
  "GET /api/marketplace/tasks": { path: () => "/api/marketplace/tasks", other: 200 },
  "POST /api/marketplace/tasks": { path: () => "/api/marketplace/tasks", body: () => ({ title: "Translate a catalog" }), other: 201 },
  "GET /api/marketplace/tasks/{id}": { path: (w) => `/api/marketplace/tasks/${w.task}`, other: 200 },
  "POST /api/marketplace/tasks/{id}/claim": {
    path: (w, id = w.task) => `/api/marketplace/tasks/${id}/claim`,
    expect: { buyer: 403 },
    other: 200,
    before: async () => ({ id: await createTask(w.accounts.buyer.token) }),
  },
  "POST /api/marketplace/tasks/{id}/complete": {
    path: (w, id = w.claimedTask) => `/api/marketplace/tasks/${id}/complete`,
    body: () => ({ result: "Done" }),
    expect: { otherSeller: 200 },
    other: 403,
    before: async (_w, c) => {
      const id = await createTask(w.accounts.buyer.token);
      await expectOk("claim", api(`/api/marketplace/tasks/${id}/claim`, { method: "POST", token: tok(c) }));
      return { id };
    },
  },
  "POST /api/marketplace/tasks/{id}/cancel": {
    path: (w, id = w.task) => `/api/marketplace/tasks/${id}/cancel`,
    expect: { buyer: 200 },
    other: 403,
    before: async () => ({ id: await createTask(w.accounts.buyer.token) }),
  },

  // Store
  "POST /api/seller/brochures": {
    path: () => "/api/seller/brochures",
    body: () => ({ title: "Catalog", fileUrl: w.documentUrl }),
    expect: { seller: 201, otherSeller: 201, guardian: 201, aiSeller: 201 },
    other: NO_STORE,
  },
  "GET /api/seller/brochures": { path: () => "/api/seller/brochures", expect: STORES, other: NO_STORE },
  "GET /api/brochures/{id}/download": { path: (w) => `/api/brochures/${w.brochure}/download`, other: 302 },
  "GET /api/analytics/views": { path: () => "/api/analytics/views", expect: STORES, other: NO_STORE },
  "GET /api/analytics/inquiries": { path: () => "/api/analytics/inquiries", expect: STORES, other: NO_STORE },
  "GET /api/analytics/downloads": { path: () => "/api/analytics/downloads", expect: STORES, other: NO_STORE },
  "GET /api/seller/dashboard": { path: () => "/api/seller/dashboard", expect: STORES, other: NO_STORE },
  // Opening a store: people without one (a fresh buyer stands in, so the world's buyer keeps none).
  "POST /api/seller/profile": {
    path: () => "/api/seller/profile",
    body: () => ({ companyName: "Matrix Trading" }),
    expect: { buyer: 201, admin: 201 },
    other: 409,
    before: async () => {
      const u = await createUser("BUYER");
      return { token: await login(u.username, u.password) };
    },
  },
  "GET /api/seller/settings": { path: () => "/api/seller/settings", expect: STORES, other: NO_STORE },
  "PUT /api/seller/settings": { path: () => "/api/seller/settings", body: () => ({ description: "Matrix store" }), expect: STORES, other: NO_STORE },

  // Chat
  "POST /api/chat/messages": {
    path: () => "/api/chat/messages",
    body: () => ({ conversationId: w.conversation, content: "Matrix hello" }),
    expect: { buyer: 201, seller: 201 },
  },
  "GET /api/chat/messages/{conversationId}": { path: (w) => `/api/chat/messages/${w.conversation}`, expect: { buyer: 200, seller: 200 } },
  "GET /api/chat/conversations": { path: () => "/api/chat/conversations", other: 200 },
  "POST /api/chat/conversations/{id}/read": { path: (w) => `/api/chat/conversations/${w.conversation}/read`, expect: { buyer: 200, seller: 200 } },

  // Notifications: everyone's own (contract 9.4)
  "GET /api/notifications": { path: () => "/api/notifications?unread=true", other: 200 },
  "GET /api/notifications/unread-count": { path: () => "/api/notifications/unread-count", other: 200 },
  "POST /api/notifications/read": { path: () => "/api/notifications/read", body: () => ({}), other: 200 },

  // Keys, admin, tool server
  "POST /api/keys": { path: () => "/api/keys", body: () => ({ name: "matrix" }), other: 201 },
  "GET /api/keys": { path: () => "/api/keys", other: 200 },
  "DELETE /api/keys/{id}": { path: (w) => `/api/keys/${w.buyerKey}`, expect: { buyer: 200 } },
  "PUT /api/admin/rate-tiers": { path: () => "/api/admin/rate-tiers", body: () => ({ userId: w.accounts.buyer.id, tier: "standard" }), other: 200 },
  "GET /api/fx-rates": { path: () => "/api/fx-rates", other: 200 },
  // XCD: a currency no other test converts with.
  "PUT /api/admin/fx-rates": {
    path: () => "/api/admin/fx-rates",
    body: () => ({ date: new Date().toISOString().slice(0, 10), rates: { XCD: 2.7 } }),
    other: 200,
  },
  "POST /mcp": {
    path: () => "/mcp",
    via: "apiKey",
    headers: { accept: "application/json, text/event-stream" },
    body: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    other: 200,
  },
  "GET /mcp": { path: () => "/mcp", other: 405 },
  "DELETE /mcp": { path: () => "/mcp", other: 405 },
};

async function freshInquiry(): Promise<string> {
  const b = await expectOk<{ inquiry: { id: string } }>(
    "inquiry",
    api("/api/buyer/inquiries", { token: w.accounts.buyer.token, json: { productId: w.product, message: "Another question" } }),
  );
  return b.inquiry.id;
}

/** The records whose ids the existence check swaps for ids that do not exist. */
const RECORD_KEYS = [
  "product",
  "draftBooth",
  "publishedBooth",
  "brochure",
  "exhibition",
  "order",
  "confirmedOrder",
  "heldOrder",
  "approval",
  "inquiry",
  "requirement",
  "offer",
  "conversation",
  "task",
  "claimedTask",
  "buyerKey",
] as const;

const OPS = allOperations();
const opKey = (op: Operation) => `${op.method} ${op.path}`;

/** What the route wrapper answers before the handler runs, derived from the operation. */
function generic(op: Operation, row: Row, c: Caller): { status: number; code: string } | undefined {
  if (op.external) return undefined;
  if (c === "disabledAi") return { status: 401, code: "unauthenticated" };
  const signedInOnly = op.access === "user" || op.access === "human" || op.access === "admin";
  if (c === "anonymous") return signedInOnly ? { status: 401, code: "unauthenticated" } : undefined;
  const ai = AI_CALLERS.includes(c);
  if (op.access === "human" && ai) return { status: 404, code: "not_found" };
  if (op.access === "admin" && c !== "admin") return { status: 403, code: "forbidden" };
  if (ai && op.permission !== "none" && !aiHolds(c, op.permission)) return { status: 403, code: "permission_denied" };
  return undefined;
}

type Cell = { key: string; op: Operation; row: Row; caller: Caller; status: number; code?: string };

function cells(): Cell[] {
  return OPS.flatMap((op) => {
    const row = ROWS[opKey(op)]!;
    return CALLERS.map((caller) => {
      const g = generic(op, row, caller);
      if (g) return { key: opKey(op), op, row, caller, ...g };
      return { key: opKey(op), op, row, caller, status: row.expect?.[caller] ?? row.other ?? 404 };
    });
  });
}

type Sent = { status: number; code?: string; text: string; request: string };

/** Send a cell's request; an answer that disagrees with the OpenAPI description is a failure too. */
async function send(cell: Cell, fresh: Fresh = {}, rewrite?: (s: string) => string): Promise<Sent> {
  try {
    return await sendRaw(cell, fresh, rewrite);
  } catch (err) {
    if (!(err instanceof ResponseMismatch)) throw err;
    return { status: -1, text: err.message, request: "" };
  }
}

async function sendRaw(cell: Cell, fresh: Fresh = {}, rewrite?: (s: string) => string): Promise<Sent> {
  const { row, caller, op } = cell;
  const id = (x: string) => (rewrite ? rewrite(x) : x);
  const path = id(row.path(w, fresh.id));
  const account = caller === "anonymous" ? undefined : w.accounts[caller];
  const token = fresh.token ?? account?.token;
  const headers: Record<string, string> = { ...(row.headers ?? {}) };
  if (row.via === "apiKey" && account) headers["x-api-key"] = account.apiKey;
  const auth = row.via === "apiKey" ? undefined : token;
  if (row.multipart) {
    const res = await postMultipart(`${server.url}${path}`, auth, [
      { name: "type", value: "product_image" },
      { name: "file", filename: "p.png", data: tinyPng(), contentType: "image/png" },
    ]);
    return { status: res.status, code: res.body.code as string | undefined, text: res.text, request: path };
  }
  let body: string | undefined;
  if (row.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(row.form).toString();
  } else if (row.body) {
    headers["content-type"] = "application/json";
    body = id(JSON.stringify(row.body(w, caller, fresh)));
  }
  const res = await api(path, { method: op.method, body, token: auth, headers });
  const code = res.body && typeof res.body === "object" ? (res.body as { code?: string }).code : undefined;
  return { status: res.status, code, text: res.text, request: `${path} ${body ?? ""}` };
}

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

let server: OwnServer;
const matrixLog: string[] = [];

beforeAll(async () => {
  server = await startOwnServer();
  useServer(server.url);
  w = await buildWorld();
}, 300_000);

afterAll(async () => {
  useServer(undefined);
  await server?.stop();
});

/** Checksums of every table but the request counters, and the audit rows as they stand. */
async function snapshot(q: Query) {
  const sums = await tableChecksums(q, ["rate_limits", "audit_logs"]);
  const audit = await q<{ id: string; row: string; ai_user_id: string; success: boolean }>(
    `select id, md5(a::text) as row, ai_user_id, success from audit_logs a`,
  );
  return { sums, audit };
}

function leaks(cell: Cell, sent: Sent): string[] {
  return privateRecords(w)
    .filter((r) => !r.visibleTo.includes(cell.caller) && !sent.request.includes(r.id) && sent.text.includes(r.id))
    .map((r) => `${cell.key} as ${cell.caller} shows the ${r.name} ${r.id}`);
}

describe("authorization matrix", () => {
  it("has exactly one row per operation of the registry (a new route needs its row)", () => {
    expect(OPS.length).toBeGreaterThan(80);
    expect(OPS.map(opKey).filter((k) => !ROWS[k])).toEqual([]);
    expect(Object.keys(ROWS).filter((k) => !OPS.some((op) => opKey(op) === k))).toEqual([]);
  });

  it("refused calls: expected status and code, 404 like a missing record, nothing written", async () => {
    const all = cells();
    const refused = all.filter((c) => c.status >= 400);
    const before = await server.withDb(snapshot);
    const failures: string[] = [];
    let requests = 0;
    let aiRequests = 0; // signed-in AI callers: each refusal is audited
    const countAi = (c: Caller) => (aiRequests += ["aiBuyer", "aiSeller", "otherAi"].includes(c) ? 1 : 0);
    await pool(refused, 6, async (cell) => {
      const sent = await send(cell);
      requests++;
      countAi(cell.caller);
      if (sent.status !== cell.status || (cell.code && sent.code !== cell.code))
        failures.push(
          `${cell.key} as ${cell.caller}: expected ${cell.status} ${cell.code ?? ""}, got ${sent.status} ${sent.code ?? ""} ${sent.text.slice(0, 160)}`,
        );
      failures.push(...leaks(cell, sent));
      if (cell.status === 404 && cell.op.params && !cell.op.external) {
        // The same call for a record that does not exist must answer the same.
        const ids = RECORD_KEYS.map((k) => w[k]);
        const missing = await send(cell, {}, (s) => ids.reduce((acc, id) => acc.replaceAll(id, randomUUID()), s));
        requests++;
        countAi(cell.caller);
        if (missing.status !== sent.status || missing.code !== sent.code)
          failures.push(`${cell.key} as ${cell.caller}: ${sent.status} ${sent.code} for the record, ${missing.status} ${missing.code} for a missing one`);
      }
    });
    const after = await server.withDb(snapshot);
    matrixLog.push(`refused cells ${refused.length} (${requests} requests)`);
    expect(failures).toEqual([]);
    expect(changedTables(before.sums, after.sums)).toEqual([]);
    // The audit log: every earlier row unchanged; new rows are exactly the refusals of AI callers.
    const old = new Map(before.audit.map((r) => [r.id, r.row]));
    expect(after.audit.filter((r) => old.has(r.id) && old.get(r.id) !== r.row)).toEqual([]);
    expect(before.audit.filter((r) => !after.audit.some((a) => a.id === r.id))).toEqual([]);
    const added = after.audit.filter((r) => !old.has(r.id));
    const aiIds = new Set(["aiBuyer", "aiSeller", "otherAi"].map((c) => w.accounts[c as "aiBuyer"].id));
    expect(added.filter((r) => r.success || !aiIds.has(r.ai_user_id))).toEqual([]);
    expect(added.length).toBe(aiRequests);
  }, 300_000);

  it("allowed calls: the owner, the store or anyone entitled gets the expected success", async () => {
    const allowed = cells().filter((c) => c.status < 400);
    const failures: string[] = [];
    const run = async (cell: Cell) => {
      const fresh = (await cell.row.before?.(w, cell.caller)) ?? {};
      const sent = await send(cell, fresh);
      if (sent.status !== cell.status) failures.push(`${cell.key} as ${cell.caller}: expected ${cell.status}, got ${sent.status} ${sent.text.slice(0, 200)}`);
      failures.push(...leaks(cell, sent));
      if (sent.status === cell.status) await cell.row.after?.(w, cell.caller, fresh);
    };
    // Calls that end sessions or disable an account (rows with an `after` step) run on their own,
    // so no other call meets a credential in transition; the rest run six at a time.
    await pool(
      allowed.filter((c) => !c.row.after),
      6,
      run,
    );
    for (const key of [...new Set(allowed.filter((c) => c.row.after).map((c) => c.key))]) await Promise.all(allowed.filter((c) => c.key === key).map(run));
    matrixLog.push(`allowed cells ${allowed.length}`);
    console.log(`authorization matrix: ${OPS.length} operations x ${CALLERS.length} callers; ${matrixLog.join("; ")}`);
    expect(failures).toEqual([]);
  }, 300_000);
});
