// POST /api/chat/conversations/:id/read - mark a conversation read
import { markConversationReadOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { markConversationRead } from "@/lib/services/chat/read";

export const POST = route(markConversationReadOp, async ({ ctx, params }) => markConversationRead(ctx, params.id));
