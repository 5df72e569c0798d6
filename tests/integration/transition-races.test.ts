// Contract 9.1: status changes are compare-and-set. For each state machine two transitions leave
// one state at the same moment over HTTP, 20 times: exactly one wins, the other is 409
// `invalid_state`, and the stored status is the winner's. On PostgreSQL the two really overlap
// (before compare-and-set a confirm overwrote an acknowledged cancellation in 13 of 20 trials);
// PGlite serializes them, where the same answers must hold.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createGuardianWithAi, createProduct, createSeller, createUser, login, unique, type ApiResult } from "../support/api";
import { createTask, expectOk, heldOrder, placeOrder } from "../support/world";

const TRIALS = 20;

let w: { seller: string; buyer: string; workers: [string, string]; workerIds: string[]; aiBuyer: string; guardian: string; product: string };

beforeAll(async () => {
  const g = await createGuardianWithAi();
  const seller = await createSeller();
  const people = await Promise.all([createUser("BUYER"), createUser("BUYER"), createUser("BUYER")]);
  const [buyer, a, b] = await Promise.all(people.map((u) => login(u.username, u.password)));
  w = {
    seller: seller.token,
    buyer: buyer!,
    workers: [a!, b!],
    workerIds: [people[1]!.id, people[2]!.id],
    aiBuyer: await login(g.aiBuyer.username, g.aiPassword),
    guardian: g.guardianToken,
    product: (await createProduct(seller.token, { price: 10, moq: 1 })).id,
  };
});

const post = (path: string, token: string, json?: unknown) => api(path, { method: "POST", token, json });

/** Of the two answers exactly one is a success and the other 409 `invalid_state`; the winner's index. */
function oneWins(answers: ApiResult[]): number {
  const won = answers.map((a) => a.status >= 200 && a.status < 300);
  expect(won.filter(Boolean), answers.map((a) => `${a.status} ${a.text}`).join("\n")).toHaveLength(1);
  const loser = answers[won.indexOf(false)]!;
  expect(loser.body).toMatchObject({ status: 409, code: "invalid_state" });
  return won.indexOf(true);
}

async function race(setup: () => Promise<string>, contenders: ((id: string) => Promise<ApiResult>)[], check: (id: string, winner: number) => Promise<void>) {
  // The trials run side by side (each its own row): only the two contenders of one trial compete.
  await Promise.all(
    Array.from({ length: TRIALS }, async () => {
      const id = await setup();
      const answers = await Promise.all(contenders.map((go) => go(id)));
      await check(id, oneWins(answers));
    }),
  );
}

async function orderStatus(id: string) {
  return (await expectOk<{ order: { status: string } }>("order", api(`/api/orders/${id}`, { token: w.buyer }))).order.status;
}
async function taskOf(id: string) {
  return (await expectOk<{ task: { status: string; claimedBy: { id: string } | null } }>("task", api(`/api/marketplace/tasks/${id}`, { token: w.buyer }))).task;
}

describe("two transitions from one state: exactly one wins", () => {
  it("orders: the buyer's cancel against the store's confirm", async () => {
    await race(
      () => placeOrder(w.buyer, w.product),
      [(id) => post(`/api/orders/${id}/cancel`, w.buyer), (id) => post(`/api/orders/${id}/confirm`, w.seller)],
      async (id, winner) => expect(await orderStatus(id)).toBe(winner === 0 ? "cancelled" : "confirmed"),
    );
  });

  it("requirements: close against close", async () => {
    await race(
      async () =>
        (
          await expectOk<{ requirement: { id: string } }>(
            "requirement",
            api("/api/buyer/requirements", { token: w.buyer, json: { title: `Need ${unique()}` } }),
          )
        ).requirement.id,
      [0, 1].map(() => (id: string) => post(`/api/buyer/requirements/${id}/close`, w.buyer)),
      async (id) => {
        const mine = await expectOk<{ requirements: { id: string; status: string }[] }>("list", api("/api/buyer/requirements?limit=100", { token: w.buyer }));
        expect(mine.requirements.find((r) => r.id === id)?.status).toBe("closed");
      },
    );
  });

  it("inquiries: close against close", async () => {
    await race(
      () => newInquiry(),
      [0, 1].map(() => (id: string) => post(`/api/buyer/inquiries/${id}/close`, w.buyer)),
      async (id) => expect((await inquiryOf(id)).status).toBe("closed"),
    );
  });

  it("inquiries: the store's reply against the buyer's close, serialized", async () => {
    // Closing a replied inquiry is a transition too, so a reply that wins is followed by the close:
    // both succeed, and the close's answer already holds the reply. A close that wins refuses the reply.
    const trial = async () => {
      const id = await newInquiry();
      const [reply, close] = await Promise.all([
        api(`/api/seller/inquiries/${id}/respond`, { token: w.seller, json: { message: "We have it" } }),
        post(`/api/buyer/inquiries/${id}/close`, w.buyer),
      ]);
      expect(close.status, close.text).toBe(200);
      const closed = close.body as { inquiry: { status: string; replies: unknown[] } };
      expect(closed.inquiry.status).toBe("closed");
      if (reply.status === 201) expect(closed.inquiry.replies).toHaveLength(1);
      else expect(reply.body).toMatchObject({ status: 409, code: "invalid_state" });
      expect((await inquiryOf(id)).replies).toHaveLength(reply.status === 201 ? 1 : 0);
    };
    await Promise.all(Array.from({ length: TRIALS }, trial));
  });

  it("tasks: claim against claim", async () => {
    await race(
      () => createTask(w.buyer),
      w.workers.map((t) => (id: string) => post(`/api/marketplace/tasks/${id}/claim`, t)),
      async (id, winner) => expect(await taskOf(id)).toMatchObject({ status: "claimed", claimedBy: { id: w.workerIds[winner] } }),
    );
  });

  it("tasks: claim against the creator's cancel", async () => {
    await race(
      () => createTask(w.buyer),
      [(id) => post(`/api/marketplace/tasks/${id}/claim`, w.workers[0]), (id) => post(`/api/marketplace/tasks/${id}/cancel`, w.buyer)],
      async (id, winner) => expect((await taskOf(id)).status).toBe(winner === 0 ? "claimed" : "cancelled"),
    );
  });

  it("tasks: complete against cancel (a claimed task is no longer the creator's to cancel)", async () => {
    await race(
      async () => {
        const id = await createTask(w.buyer);
        await expectOk("claim", post(`/api/marketplace/tasks/${id}/claim`, w.workers[0]));
        return id;
      },
      [
        (id) => api(`/api/marketplace/tasks/${id}/complete`, { token: w.workers[0], json: { result: "Done" } }),
        (id) => post(`/api/marketplace/tasks/${id}/cancel`, w.buyer),
      ],
      async (id, winner) => {
        expect(winner).toBe(0);
        expect((await taskOf(id)).status).toBe("completed");
      },
    );
  });

  it("approvals: approve against reject, and the held order follows the winner", async () => {
    const orderOf = new Map<string, string>();
    await race(
      async () => {
        const held = await heldOrder(w.aiBuyer, w.product);
        orderOf.set(held.approval, held.order);
        return held.approval;
      },
      [(id) => post(`/api/ai/approvals/${id}/approve`, w.guardian), (id) => post(`/api/ai/approvals/${id}/reject`, w.guardian)],
      async (id, winner) => {
        const list = await expectOk<{ approvals: { id: string; status: string }[] }>("approvals", api("/api/ai/approvals?limit=100", { token: w.guardian }));
        expect(list.approvals.find((a) => a.id === id)?.status).toBe(winner === 0 ? "approved" : "rejected");
        const order = await expectOk<{ order: { status: string } }>("order", api(`/api/orders/${orderOf.get(id)}`, { token: w.aiBuyer }));
        expect(order.order.status).toBe(winner === 0 ? "placed" : "rejected");
      },
    );
  });
});

async function newInquiry(): Promise<string> {
  return (
    await expectOk<{ inquiry: { id: string } }>("inquiry", api("/api/buyer/inquiries", { token: w.buyer, json: { productId: w.product, message: "Stock?" } }))
  ).inquiry.id;
}

async function inquiryOf(id: string) {
  const mine = await expectOk<{ inquiries: { id: string; status: string; replies: unknown[] }[] }>(
    "inquiries",
    api("/api/buyer/inquiries?limit=100", { token: w.buyer }),
  );
  const found = mine.inquiries.find((i) => i.id === id);
  if (!found) throw new Error(`inquiry ${id} not listed`);
  return found;
}
