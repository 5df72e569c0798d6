import { describe, expect, it } from "vitest";
import { defaultPermissions, PERMISSION_NAMES } from "@/lib/ai/permissions";

// Spec 5.3, written out independently of the source table.
const SPEC = `product.browse yes yes
chat.send yes yes
chat.read yes yes
shoutout.post yes yes
order.view yes yes
inquiry.create yes no
order.place yes no
product.create no yes
product.update no yes
booth.edit no yes
brochure.upload no yes
inquiry.respond no yes
order.fulfill no yes
product.delete no no
store.profile.edit no no
task.create yes yes
task.claim yes yes`;

describe("AI permission defaults", () => {
  const rows = SPEC.split("\n").map((l) => l.split(" ") as [string, string, string]);
  it("has exactly the 15 permissions of spec 5.3 and the two task permissions of contract 9.1", () => {
    expect([...PERMISSION_NAMES].sort()).toEqual(rows.map((r) => r[0]).sort());
  });
  it.each(rows)("%s: AI_BUYER %s, AI_SELLER %s", (name, buyer, seller) => {
    expect(defaultPermissions("AI_BUYER")[name as never]).toBe(buyer === "yes");
    expect(defaultPermissions("AI_SELLER")[name as never]).toBe(seller === "yes");
  });
});
