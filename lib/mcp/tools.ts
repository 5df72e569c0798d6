// The tool table (contract 7 and 9.5): each MCP tool is one operation's handler in lib/api/handlers
// (the handler carries its operation). The dispatcher (./dispatch.ts) calls it through the gate
// (`invoke`), so validation, permissions, self-trade rules, audit and idempotency are exactly the
// REST API's; the /mcp request itself was counted against the rate tier.
//
// How arguments split: names in the operation's path-parameter schema fill the path, names in its
// query schema the query (as a URL would carry them), everything else the JSON body (a GET takes
// the rest as query). `idempotencyKey` (tools on idempotent POST routes) is the Idempotency-Key.
// A tool may rename route arguments (ToolDef.rename): ids are `<thing>Id` everywhere.
import { ACCOUNT_TOOLS } from "./tools-account";
import { CATALOG_TOOLS } from "./tools-catalog";
import { DEAL_TOOLS } from "./tools-deals";
import { ORDER_TOOLS } from "./tools-orders";
import type { ToolDef } from "./tool-def";

export type { ToolDef, ToolRoute, ToolRoutes } from "./tool-def";
export { routesOf } from "./tool-def";

export const TOOLS: readonly ToolDef[] = [...ACCOUNT_TOOLS, ...CATALOG_TOOLS, ...DEAL_TOOLS, ...ORDER_TOOLS];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDef> = new Map(TOOLS.map((t) => [t.name, t]));
