// Unknown tool arguments are refused, naming each (contract 9.5), rather than dropped as REST drops
// unknown body fields: a misspelt or renamed argument would otherwise be a call that silently does
// something else (a search without its filter, an update that changes nothing).
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "@/lib/errors";
import { problemBody } from "@/lib/api/errors";

/** The refusal of a call whose arguments are not all in the tool's listed input schema, or null. */
export function unknownArgumentsRefusal(tool: Tool, args: Record<string, unknown>): CallToolResult | null {
  const known = Object.keys(tool.inputSchema.properties ?? {});
  const unknown = Object.keys(args).filter((name) => !Object.hasOwn(tool.inputSchema.properties ?? {}, name));
  if (unknown.length === 0) return null;
  const takes = known.length ? `${tool.name} takes: ${known.join(", ")}` : `${tool.name} takes no arguments`;
  const problem = problemBody(
    new ApiError("validation_failed", `Unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `\`${n}\``).join(", ")}; ${takes}`, {
      errors: unknown.map((path) => ({ path, message: `Unknown argument; ${takes}` })),
    }),
  );
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem) }], structuredContent: problem };
}
