// The Host header checked once, where requests arrive (contract 9.1; RFC 9112 3.2: a request with
// more than one Host or an invalid one is answered 400). Left alone, a malformed Host reaches every
// place that builds a URL from it (`new URL("http://a b/")` throws: a 500) and the page cache's key.
import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";
import { ApiError } from "@/lib/errors";
import { problemBody } from "@/lib/api/errors";

// uri-host [":" port]: a bracketed IPv6 literal or a reg-name (no "%": WHATWG URL rejects what it decodes to).
const HOST = /^(?:\[([0-9A-Fa-f:.]+)\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::(\d{0,5}))?$/;

/** Why the request's Host is unusable, or null. A missing Host is Node's to refuse (HTTP/1.1) or fine (HTTP/1.0). */
export function badHost(req: IncomingMessage): string | null {
  const host = req.headers.host;
  if (host === undefined || host === "") return null;
  let lines = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.length === 4 && req.rawHeaders[i]!.toLowerCase() === "host") lines++;
  if (lines > 1) return "More than one Host header";
  const m = HOST.exec(host);
  if (!m || (m[1] !== undefined && !isIPv6(m[1])) || (m[2] && Number(m[2]) > 65535) || !URL.canParse(`http://${host}/`)) return "Malformed Host header";
  return null;
}

/** The 400 answer: problem+json on /api and /mcp, plain text elsewhere (pages, /ws/chat). */
export function hostRefusal(detail: string, api: boolean): { body: string; type: string } {
  if (!api) return { body: `400 Bad Request: ${detail}\n`, type: "text/plain; charset=utf-8" };
  const problem = problemBody(new ApiError("validation_failed", detail, { errors: [{ path: "Host", message: detail }] }));
  return { body: JSON.stringify(problem), type: "application/problem+json" };
}
