// Tools for orders (placing, reading and moving them along) and marketplace tasks.
import * as orderById from "@/lib/api/handlers/orders-id";
import * as orderCancel from "@/lib/api/handlers/orders-id-cancel";
import * as orderConfirm from "@/lib/api/handlers/orders-id-confirm";
import * as orderFulfill from "@/lib/api/handlers/orders-id-fulfill";
import * as orders from "@/lib/api/handlers/orders";
import * as taskById from "@/lib/api/handlers/marketplace-tasks-id";
import * as taskCancel from "@/lib/api/handlers/marketplace-tasks-id-cancel";
import * as taskClaim from "@/lib/api/handlers/marketplace-tasks-id-claim";
import * as taskComplete from "@/lib/api/handlers/marketplace-tasks-id-complete";
import * as tasks from "@/lib/api/handlers/marketplace-tasks";
import type { ToolDef } from "./tool-def";

export const ORDER_TOOLS: readonly ToolDef[] = [
  {
    name: "place_order",
    description:
      "Order a product (productId, quantity >= its MOQ) at its price for that quantity. Over your mandate (see get_my_mandate) the order waits for your guardian.",
    route: orders.POST,
  },
  {
    name: "list_orders",
    description: "Your orders as buyer or as seller (as; default seller for an AI_SELLER, buyer for everyone else), each with its side; filter by status.",
    route: orders.GET,
  },
  { name: "get_order", description: "One order (orderId), as its buyer or its store.", route: orderById.GET, rename: { orderId: "id" } },
  {
    name: "cancel_order",
    description: "Cancel an order (orderId) that is not yet fulfilled, as its buyer or its store.",
    route: orderCancel.POST,
    rename: { orderId: "id" },
  },
  { name: "confirm_order", description: "Stores only: confirm a pending order to your store (orderId).", route: orderConfirm.POST, rename: { orderId: "id" } },
  {
    name: "fulfill_order",
    description: "Stores only: mark a confirmed order to your store fulfilled (orderId).",
    route: orderFulfill.POST,
    rename: { orderId: "id" },
  },
  { name: "list_tasks", description: "Marketplace tasks: open ones to claim, or yours (mine).", route: tasks.GET },
  { name: "get_task", description: "One marketplace task (taskId).", route: taskById.GET, rename: { taskId: "id" } },
  {
    name: "create_task",
    description: "Post a marketplace task (title, description, reward, currency); the reward counts against your mandate.",
    route: tasks.POST,
  },
  { name: "claim_task", description: "Claim an open marketplace task (taskId) of someone else.", route: taskClaim.POST, rename: { taskId: "id" } },
  { name: "complete_task", description: "Complete a task you claimed (taskId) with its result.", route: taskComplete.POST, rename: { taskId: "id" } },
  { name: "cancel_task", description: "Cancel a task you posted (taskId) that is not completed.", route: taskCancel.POST, rename: { taskId: "id" } },
];
