// Chat shapes (spec 2.7, 4.6 and 6; contract 5), shared by the REST handlers, the /ws/chat socket,
// the OpenAPI document and (later) the MCP tools, so every path validates a message the same way.
import { z } from "zod";
import { PageQuery, Timestamp } from "./common";

export const CONTENT_MAX = 5000;

const Id = z.string().trim().min(1).max(100);

/** Trimmed, then 1-5000 characters; the trimmed text is what is stored. */
export const MessageContent = z
  .string()
  .trim()
  .min(1, "Content cannot be empty")
  .max(CONTENT_MAX, `At most ${CONTENT_MAX} characters`)
  .meta({ description: `Message text, 1-${CONTENT_MAX} characters after trimming`, example: "Hello, is OEM packaging possible for 500 units?" });

const sendFields = {
  conversationId: Id.optional().meta({ description: "Continue this conversation (you must be a participant)" }),
  to: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: "Recipient user id or username; starts or continues the pair's conversation", example: "acme_sales" }),
  productId: Id.optional().meta({
    description:
      "The product the conversation is about (one conversation per pair and product). Alone, it reaches the product's store; with `to`, it names the topic",
  }),
  storeId: Id.optional().meta({ description: "Reach a store (its seller profile id, as products, booths and inquiries show it) instead of a user" }),
  content: MessageContent,
};

type Target = { conversationId?: string; to?: string; productId?: string; storeId?: string };
const needsTarget = (v: Target) => Boolean(v.conversationId || v.to || v.productId || v.storeId);
const targetIssue = { message: "Send `conversationId`, `to` (a user id or username), `storeId` or `productId`", path: ["to"] };
// `to` names a person, `storeId` a store: one recipient, never two that could disagree.
const oneRecipient = (v: Target) => !(v.to !== undefined && v.storeId !== undefined);
const recipientIssue = { message: "Send either `to` or `storeId`, not both", path: ["storeId"] };

export const SendMessageBody = z
  .object(sendFields)
  .refine(needsTarget, targetIssue)
  .refine(oneRecipient, recipientIssue)
  .meta({
    id: "SendMessage",
    // The target rule above, for readers of the OpenAPI document: at least one of them.
    anyOf: [{ required: ["conversationId"] }, { required: ["to"] }, { required: ["productId"] }, { required: ["storeId"] }],
  });
export type SendMessageInput = z.output<typeof SendMessageBody>;

/** The socket's message frame: the same fields, plus an optional `ref` echoed in its ack or error. */
export const MessageFrame = z
  .object({ ...sendFields, ref: z.string().max(100).optional() })
  .refine(needsTarget, targetIssue)
  .refine(oneRecipient, recipientIssue);

export const ChatMessageSchema = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    from: z.string().meta({ description: "Sender user id" }),
    to: z.string().meta({ description: "Recipient user id" }),
    content: z.string(),
    sentByAI: z.boolean().meta({ description: "True when an AI agent account sent it" }),
    createdAt: Timestamp,
  })
  .meta({ id: "ChatMessage" });
export type ChatMessage = z.output<typeof ChatMessageSchema>;

export const ConversationSchema = z
  .object({
    id: z.string(),
    otherUser: z.object({
      id: z.string(),
      username: z.string(),
      companyName: z
        .string()
        .nullable()
        .meta({ description: "The company the other side trades as: its store's name, for an AI account its guardian's store; null without a store" }),
      isAI: z.boolean(),
    }),
    product: z.object({ id: z.string(), title: z.string() }).nullable(),
    lastMessage: ChatMessageSchema.nullable(),
    unreadCount: z.number().int().meta({ description: "Messages after your last read that you did not send" }),
    updatedAt: Timestamp.meta({ description: "Last activity" }),
    createdAt: Timestamp,
  })
  .meta({ id: "Conversation" });
export type Conversation = z.output<typeof ConversationSchema>;

export const ConversationParam = z.object({ conversationId: Id });
export const ConversationIdParam = z.object({ id: Id });

export const MessagesQuery = PageQuery.extend({
  before: Id.optional().meta({ description: "A message id: return the page of messages just older than it (then `page` is ignored)" }),
});

export const SentMessage = z.object({ message: ChatMessageSchema, conversation: ConversationSchema }).meta({ id: "SentMessage" });

export const MessagePage = z
  .object({
    messages: z.array(ChatMessageSchema).meta({ description: "Oldest to newest within the page; page 1 is the newest" }),
    conversation: ConversationSchema,
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    nextBefore: z.string().nullable().meta({ description: "Pass as `before` for the next older page; null at the beginning" }),
  })
  .meta({ id: "MessagePage" });

export const ConversationPage = z
  .object({ conversations: z.array(ConversationSchema), page: z.number().int(), limit: z.number().int(), total: z.number().int() })
  .meta({ id: "ConversationPage" });
