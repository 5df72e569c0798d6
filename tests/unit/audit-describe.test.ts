import { describe, expect, it } from "vitest";
import { actionLabel, describeDetails } from "@/components/ai/audit-describe";

describe("audit rows for people", () => {
  it("names a permission's action by its permission label, others by their own, unknown ones raw", () => {
    expect(actionLabel("order.place")).toEqual({ namespace: "Permissions", key: "order_place" });
    expect(actionLabel("store.profile.edit")).toEqual({ namespace: "Permissions", key: "store_profile_edit" });
    expect(actionLabel("auth.login")).toEqual({ namespace: "AuditView", key: "action_auth_login" });
    expect(actionLabel("order.approval_requested")).toEqual({ namespace: "AuditView", key: "action_approval_requested" });
    expect(actionLabel("something.new")).toEqual({ raw: "something.new" });
  });

  it("reads the target, channel and status of the gate's HTTP line, and a refusal's reason", () => {
    expect(describeDetails("POST /api/orders/0190-ab/confirm -> 200")).toEqual({ target: "/orders/0190-ab/confirm", channel: null, status: 200, reason: null });
    expect(describeDetails("mcp POST /api/products?x=1 -> 201")).toEqual({ target: "/products", channel: "mcp", status: 201, reason: null });
    expect(describeDetails("WS /ws/chat message m1 in conversation c1")).toMatchObject({ target: "/ws/chat", status: null });
    expect(describeDetails('permission_denied: This AI account lacks the permission "order.place"')).toEqual({
      target: null,
      channel: null,
      status: null,
      reason: 'This AI account lacks the permission "order.place"',
    });
  });
});
