// POST /api/chat/messages - send a message (starts or continues a conversation)
import { sendMessageOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { sendMessage } from "@/lib/services/chat/send";

export const POST = route(sendMessageOp, async ({ ctx, body }) => sendMessage(ctx, body));
