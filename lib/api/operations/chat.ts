import { z } from "zod";
import {
  ConversationIdParam,
  ConversationPage,
  ConversationParam,
  ConversationSchema,
  MessagePage,
  MessagesQuery,
  SendMessageBody,
  SentMessage,
} from "@/lib/schemas/chat";
import { errorResponses, PageQuery } from "@/lib/schemas/common";
import { defineOperation } from "../operation";

const tags = ["Chat"];
const participantsOnly =
  "Only the two participants see a conversation, and, in a conversation about a product of a store, the store owner's AI_SELLER (within chat.read/chat.send); for anyone else it does not exist (404).";

export const sendMessageOp = defineOperation({
  method: "POST",
  path: "/api/chat/messages",
  operationId: "sendMessage",
  summary: "Send a chat message (starts or continues a conversation)",
  description:
    "`{ conversationId, content }` continues a conversation; `{ to, content, productId? }` (`to` = user id or username) starts the pair's conversation about " +
    "that product (or about none) or continues it. `{ storeId, content, productId? }` or `{ productId, content }` reaches a store (its owner), the ids " +
    "products, stores and inquiries show. The message is stored, then delivered live on `/ws/chat` to every socket of the recipient and to the " +
    "sender's sockets. Messages of AI accounts carry `sentByAI: true`; an AI account may not chat with its guardian, its sibling AI account or about its " +
    `guardian's products (403 \`self_trade_forbidden\`). Messaging yourself is 400. ${participantsOnly}`,
  tags,
  access: "user",
  permission: "chat.send",
  body: SendMessageBody,
  responses: { 201: { description: "Sent", schema: SentMessage }, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
});

export const listMessagesOp = defineOperation({
  method: "GET",
  path: "/api/chat/messages/{conversationId}",
  operationId: "listMessages",
  summary: "Messages of a conversation (newest page first; oldest to newest within a page)",
  description: `Page backwards with \`before\` (the \`nextBefore\` of the previous answer) or with \`page\`. Reading marks the conversation read up to the newest message returned. ${participantsOnly}`,
  tags,
  access: "user",
  permission: "chat.read",
  params: ConversationParam,
  query: MessagesQuery,
  responses: { 200: { description: "Messages", schema: MessagePage }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const listConversationsOp = defineOperation({
  method: "GET",
  path: "/api/chat/conversations",
  operationId: "listConversations",
  summary: "Your conversations, most recent activity first, with unread counts",
  tags,
  access: "user",
  permission: "chat.read",
  query: PageQuery,
  responses: { 200: { description: "Conversations", schema: ConversationPage }, ...errorResponses(400, 401, 403, 429) },
});

export const markConversationReadOp = defineOperation({
  method: "POST",
  path: "/api/chat/conversations/{id}/read",
  operationId: "markConversationRead",
  summary: "Mark a conversation read up to its newest message",
  description: participantsOnly,
  tags,
  access: "user",
  permission: "chat.read",
  params: ConversationIdParam,
  responses: { 200: { description: "Read", schema: z.object({ conversation: ConversationSchema }) }, ...errorResponses(401, 403, 404, 429) },
});
