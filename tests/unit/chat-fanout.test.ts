// Chat fan-out payloads: a group's deliveries packed into NOTIFY payloads under PostgreSQL's
// 8000-byte limit, in order, with a message too large to travel sent by id. Message ids never go
// backwards, so they sort like the order in which they were taken.
import { describe, expect, it } from "vitest";
import { deliveryPayloads, PAYLOAD_LIMIT, type Delivery } from "@/lib/realtime/fanout";
import { messageId } from "@/lib/services/chat/ids";

const sent = (i: number, content: string) => ({
  message: {
    id: `id${i}`,
    conversationId: "c",
    from: "a",
    to: "b",
    content,
    sentByAI: false,
    createdAt: new Date(0).toISOString(),
  },
  originSocket: "s",
});

describe("chat fan-out payloads", () => {
  it("packs a group in order under the limit and sends a too large message by id", () => {
    const group = Array.from({ length: 300 }, (_, i) => sent(i, i === 5 ? "漢".repeat(5000) : "x".repeat(i % 50)));
    const payloads = deliveryPayloads(group);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(PAYLOAD_LIMIT);
    const items = payloads.flatMap((p) => (JSON.parse(p) as { ms: Delivery[] }).ms);
    expect(items.map((d) => ("m" in d ? d.m.id : d.id))).toEqual(group.map((g) => g.message.id));
    expect(items[5]).toEqual({ id: "id5", from: "a", to: "b", o: "s" });
    expect(items[6]).toEqual({ m: group[6]!.message, o: "s" });
  });

  it("takes message ids in increasing order, also many within one millisecond", () => {
    const ids = Array.from({ length: 10_000 }, () => messageId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 10)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
