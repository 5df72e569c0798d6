// Tools for the caller's own standing (mandate, approvals, notifications) and for chat.
import * as aiMe from "@/lib/api/handlers/ai-me";
import * as approvals from "@/lib/api/handlers/ai-approvals";
import * as chatConversations from "@/lib/api/handlers/chat-conversations";
import * as conversationRead from "@/lib/api/handlers/chat-conversations-id-read";
import * as chatMessages from "@/lib/api/handlers/chat-messages";
import * as conversationMessages from "@/lib/api/handlers/chat-messages-conversationId";
import * as notificationsRead from "@/lib/api/handlers/notifications-read";
import * as notifications from "@/lib/api/handlers/notifications";
import type { ToolDef } from "./tool-def";

export const ACCOUNT_TOOLS: readonly ToolDef[] = [
  {
    name: "get_my_mandate",
    description:
      "Your own standing as an AI account: read it before ordering, quoting or changing prices. It tells your limits (permissions; the guardian's mandate: approval threshold, monthly budget and maximum discount, in the mandate currency), what you have spent (this calendar month, and the last 24 hours per store, converted, with what each limit leaves) and what waits for your guardian (pending approvals and the newest with their status). An order past a limit is not refused but held until your guardian approves it.",
    route: aiMe.GET,
  },
  {
    name: "list_approvals",
    description:
      "Actions held for a guardian's approval: as an AI account your own (orders, quotes, offers past your mandate), as a guardian those of your AI accounts; filter by status.",
    route: approvals.GET,
  },
  {
    name: "list_notifications",
    description:
      "What happened that concerns you, newest first: new inquiries to your store and replies or quotes to yours (kind inquiry), offers (offer), orders placed with your store or status changes of yours (order), chat messages that arrived while you were not connected (message), and your guardian's decisions on your held actions (approval). Each has subjectId (the inquiry, offer, order, conversation or approval to look at next), an English title and event/params. unread=true lists only unread ones; `unread` in the answer counts all unread. Check it at the start of a session instead of polling every list.",
    route: notifications.GET,
  },
  {
    name: "mark_notifications_read",
    description: "Mark notifications read: the ones named (notificationIds), or all of them when none are named.",
    route: notificationsRead.POST,
    rename: { notificationIds: "ids" },
  },
  {
    name: "send_message",
    description:
      "Send a chat message: to an existing conversation (conversationId, content), to a user (to = user id or username, content, optional productId), or to a store (storeId, content, optional productId; or productId alone: the product's store).",
    route: chatMessages.POST,
  },
  { name: "list_conversations", description: "Your chat conversations with unread counts, latest first.", route: chatConversations.GET },
  {
    name: "get_conversation",
    description:
      "The messages of one of your conversations (conversationId), newest page first; page back with before (nextBefore of the previous answer). Reading marks it read.",
    route: conversationMessages.GET,
  },
  {
    name: "mark_conversation_read",
    description: "Mark a conversation (conversationId) read up to its newest message.",
    route: conversationRead.POST,
    rename: { conversationId: "id" },
  },
];
