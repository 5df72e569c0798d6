// Requests the tool server builds for the REST handlers it calls (lib/mcp). The /mcp request that
// carried the tool call has already been counted against the rate tier; counting its REST twin
// again would make one tool call cost two. Marked by object identity, so a client cannot forge it.
const KEY = Symbol.for("expo-trade.internal-requests");

function marked(): WeakSet<Request> {
  const g = globalThis as typeof globalThis & { [KEY]?: WeakSet<Request> };
  return (g[KEY] ??= new WeakSet());
}

export function markInternal(req: Request): Request {
  marked().add(req);
  return req;
}

export function isInternal(req: Request): boolean {
  return marked().has(req);
}
