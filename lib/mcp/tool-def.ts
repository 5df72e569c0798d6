// What a tool is: one operation's handler (which carries its operation), or a choice of them by one
// argument, under names an agent can rely on (contract 9.5: ids named `<thing>Id`, never bare `id`).
import type { OperationHandler } from "@/lib/api/route";
import type { Actor } from "@/lib/auth/actor";

/** A tool's route is the operation's handler, which carries its operation (method, path, schemas). */
export type ToolRoute = OperationHandler;
/** One route, or a choice of routes by one string argument (e.g. `as: buyer | seller`). */
/** `default` may depend on the caller (contract 9.5: an AI_SELLER's lists default to its store's side). */
export type ToolRoutes = ToolRoute | { by: string; default: (actor: Actor) => string; description: string; routes: Record<string, ToolRoute> };
/**
 * `rename`: the tool's names for route arguments, tool name -> route name (`{ offerId: "id" }` for
 * the `{id}` path parameter): the route's name is then refused, pointing at the tool's.
 * `describe`: descriptions of arguments whose schema has none (the schemas' own descriptions win).
 */
export type ToolDef = { name: string; description: string; route: ToolRoutes; rename?: Record<string, string>; describe?: Record<string, string> };

export function routesOf(tool: ToolDef): ToolRoute[] {
  return "by" in tool.route ? Object.values(tool.route.routes) : [tool.route];
}
