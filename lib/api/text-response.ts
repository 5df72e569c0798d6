// Responses built from a string (or bytes) remember it, so the custom server's direct dispatch can
// write it straight to the socket instead of pumping it through a web ReadableStream. They do not
// even make that stream unless someone reads the body: Node's `new Response(string)` builds a byte
// stream and its transfer machinery at once, ~20 us, more than the rest of a small JSON answer.
// Next's pipeline (and anyone else) reads `body`, `text()`, `clone()` ... as from any Response.
const KEY = Symbol.for("expo-trade.response-text");
export type Body = string | Uint8Array;
type G = typeof globalThis & { [KEY]?: WeakMap<Response, Body> };
const texts = (): WeakMap<Response, Body> => ((globalThis as G)[KEY] ??= new WeakMap());

/** A Response whose body is made from its text on first use (status and headers are its own). */
class TextResponse extends Response {
  #text: Body;
  #real: Response | undefined;

  constructor(text: Body, init: ResponseInit, type?: string) {
    super(null, init);
    this.#text = text;
    if (type) this.headers.set("content-type", type);
    // What `new Response(string)` would add.
    else if (typeof text === "string" && !this.headers.has("content-type")) this.headers.set("content-type", "text/plain;charset=UTF-8");
  }

  #body(): Response {
    return (this.#real ??= new Response(this.#text as BodyInit));
  }
  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#body().body;
  }
  override get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#body().blob();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#body().bytes();
  }
  override formData(): Promise<FormData> {
    return this.#body().formData();
  }
  override json(): Promise<unknown> {
    return this.#body().json();
  }
  override text(): Promise<string> {
    return this.#body().text();
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return textResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

/** A Response of this text; `type` (if given) replaces any Content-Type in `init.headers`. */
export function textResponse(text: Body, init: ResponseInit, type?: string): Response {
  const res = new TextResponse(text, init, type);
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
  return text !== undefined
    ? textResponse(text, { status: res.status, statusText: res.statusText, headers })
    : new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
