// GET /api/chat/messages/:conversationId - a conversation's messages (marks them read)
import { listMessagesOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listMessages } from "@/lib/services/chat/read";

export const GET = route(listMessagesOp, async ({ ctx, params, query }) => listMessages(ctx, params.conversationId, query));
