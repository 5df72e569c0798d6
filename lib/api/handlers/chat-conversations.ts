// GET /api/chat/conversations - your conversations with unread counts
import { listConversationsOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { listConversations } from "@/lib/services/chat/read";

export const GET = route(listConversationsOp, async ({ ctx, query }) => listConversations(ctx, query));
