// Responses built from a string (or bytes) remember it, so the custom server's direct dispatch can
// write it straight to the socket instead of pumping it through a web ReadableStream (a large share
// of a small JSON answer's cost). Next's pipeline reads the body as usual.
const KEY = Symbol.for("expo-trade.response-text");
export type Body = string | Uint8Array;
type G = typeof globalThis & { [KEY]?: WeakMap<Response, Body> };
const texts = (): WeakMap<Response, Body> => ((globalThis as G)[KEY] ??= new WeakMap());

export function textResponse(text: Body, init: ResponseInit): Response {
  const res = new Response(text as BodyInit, init);
  texts().set(res, text);
  return res;
}

/** The string or bytes a response was built from, while its body has not been read. */
export function responseText(res: Response): Body | undefined {
  return res.bodyUsed ? undefined : texts().get(res);
}

/** A copy with other headers (for responses whose headers are immutable); keeps the string. */
export function copyResponse(res: Response, headers: Headers): Response {
  const text = responseText(res);
  return text !== undefined ? textResponse(text, { status: res.status, statusText: res.statusText, headers }) : new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
