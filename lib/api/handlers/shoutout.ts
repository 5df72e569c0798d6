// POST /api/shoutout - post a shoutout
// GET /api/shoutout - the public feed
import { postShoutoutOp, shoutoutFeedOp } from "@/lib/api/operations";
import { json, route } from "@/lib/api/route";
import { postShoutout, shoutoutFeed } from "@/lib/services/community/shoutouts";

export const POST = route(postShoutoutOp, async ({ ctx, body }) => json({ shoutout: await postShoutout(ctx, body) }, 201));

export const GET = route(shoutoutFeedOp, async ({ ctx, query }) => shoutoutFeed(ctx.db, query));
