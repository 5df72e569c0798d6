// POST /mcp - the MCP tool server (Streamable HTTP, stateless; API keys only)
// GET, DELETE /mcp - 405: no event stream or session in stateless mode
import { unauthenticated } from "@/lib/errors";
import { mcpDeleteOp, mcpGetOp, mcpOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { signedInActor } from "@/lib/auth/actor";
import { handleMcpRequest, mcpMethodNotAllowed } from "@/lib/mcp/server";

export const POST = route(mcpOp, async ({ req, ctx, body }) => {
  // Contract 7: the tool server takes API keys; a browser cookie or a JWT is not enough.
  if (signedInActor(ctx.actor).session.via !== "api_key")
    throw unauthenticated("The tool server takes an API key (Authorization: Bearer etk_... or X-API-Key); create one at POST /api/keys");
  return handleMcpRequest(req, ctx, body);
});

export const GET = route(mcpGetOp, async () => mcpMethodNotAllowed("GET"));

export const DELETE = route(mcpDeleteOp, async () => mcpMethodNotAllowed("DELETE"));
