// Unknown tool arguments are refused, naming each (contract 9.5), rather than dropped as REST drops
// unknown body fields: a misspelt or renamed argument would otherwise be a call that silently does
// something else (a search without its filter, an update that changes nothing). A route's name for
// an argument the tool renamed (the old bare `id`) is refused pointing at the tool's name.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "@/lib/errors";
import { problemBody } from "@/lib/api/errors";
import { renamedTo } from "./arguments";
import { failure } from "./dispatch";
import type { ToolDef } from "./tool-def";

/** The refusal of a call whose arguments are not all in the tool's listed input schema, or null. */
export function unknownArgumentsRefusal(tool: Tool, args: Record<string, unknown>, rename?: ToolDef["rename"]): CallToolResult | null {
  const known = Object.keys(tool.inputSchema.properties ?? {});
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(tool.inputSchema.properties ?? {}, name));
  if (unknown.length === 0) return null;
  const takes = known.length ? `${tool.name} takes: ${known.join(", ")}` : `${tool.name} takes no arguments`;
  const why = (name: string) => {
    const instead = renamedTo(rename, name);
    return instead ? `Unknown argument; use \`${instead}\` instead (${takes})` : `Unknown argument; ${takes}`;
  };
  const renamed = unknown.map((n) => [n, renamedTo(rename, n)] as const).filter(([, to]) => to);
  const hint = renamed.length ? `; ${renamed.map(([from, to]) => `\`${from}\` is now \`${to}\``).join(", ")}` : "";
  const problem = problemBody(
    new ApiError("validation_failed", `Unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `\`${n}\``).join(", ")}${hint}; ${takes}`, {
      errors: unknown.map((path) => ({ path, message: why(path) })),
    }),
  );
  return failure(problem);
}
