// The Request the direct dispatch hands to route handlers: the parts of the web Request they use,
// read from node's IncomingMessage on demand. Node's own Request costs a URL parse, a copy of every
// header, a web stream and an AbortSignal per request (with its transfer machinery), about a fifth
// of a small JSON answer; here each costs something only if a handler asks for it.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { Readable } from "node:stream";

/**
 * Request headers over node's parsed header object (names already lower-case; repeated fields
 * joined as node joins them). A real `Headers` subclass, so `instanceof Headers` holds; iteration
 * and writes work on a private copy made the first time either is asked for.
 */
export class NodeHeaders extends Headers {
  #raw: IncomingHttpHeaders;
  #copy: Headers | null = null;

  constructor(raw: IncomingHttpHeaders) {
    super();
    this.#raw = raw;
  }

  #full(): Headers {
    if (!this.#copy) {
      const h = new Headers();
      for (const [k, v] of Object.entries(this.#raw)) {
        if (v === undefined) continue;
        if (Array.isArray(v)) for (const x of v) h.append(k, x);
        else h.append(k, v);
      }
      this.#copy = h;
    }
    return this.#copy;
  }

  override get(name: string): string | null {
    if (this.#copy) return this.#copy.get(name);
    const v = this.#raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }
  override has(name: string): boolean {
    return this.#copy ? this.#copy.has(name) : this.#raw[name.toLowerCase()] !== undefined;
  }
  override getSetCookie(): string[] {
    return this.#full().getSetCookie();
  }
  override set(name: string, value: string): void {
    this.#full().set(name, value);
  }
  override append(name: string, value: string): void {
    this.#full().append(name, value);
  }
  override delete(name: string): void {
    this.#full().delete(name);
  }
  override forEach(cb: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#full().forEach((v, k) => cb.call(thisArg, v, k, this));
  }
  override entries(): ReturnType<Headers["entries"]> {
    return this.#full().entries();
  }
  override keys(): ReturnType<Headers["keys"]> {
    return this.#full().keys();
  }
  override values(): ReturnType<Headers["values"]> {
    return this.#full().values();
  }
  override [Symbol.iterator](): ReturnType<Headers["entries"]> {
    return this.#full().entries();
  }
}

const unusable = () => new TypeError("Body is unusable: the request body has already been read");

/** Duck-typed as `Request` for the handlers; see the module comment for what it leaves out. */
export class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeHeaders;
  #req: IncomingMessage;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #used = false;
  #signal: AbortSignal | undefined;

  constructor(req: IncomingMessage, method: string) {
    this.#req = req;
    this.method = method;
    this.url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
    this.headers = new NodeHeaders(req.headers);
    // GET and HEAD carry no body for a handler, as with `new Request`.
    if (method === "GET" || method === "HEAD") this.#body = null;
  }

  /** The body as a web stream (uploads stream it through busboy); made on first use. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) this.#body = Readable.toWeb(this.#req) as unknown as ReadableStream<Uint8Array>;
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** Never aborted: node's Request built for the dispatch was not tied to the connection either. */
  get signal(): AbortSignal {
    return (this.#signal ??= new AbortController().signal);
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#used || (this.#body && this.#body.locked)) throw unusable();
    this.#used = true;
    if (this.#body === null) return new Uint8Array(0);
    const chunks: Buffer[] = [];
    if (this.#body) {
      for await (const c of this.#body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(c));
    } else {
      for await (const c of this.#req) chunks.push(c as Buffer);
    }
    const all = Buffer.concat(chunks);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength) as Uint8Array<ArrayBuffer>;
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.bytes();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  }
  async text(): Promise<string> {
    return new TextDecoder("utf-8").decode(await this.bytes());
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get("content-type") ?? "" });
  }
  /** Multipart and urlencoded forms, parsed by undici as `Request.formData()` would. */
  async formData(): Promise<FormData> {
    const type = this.headers.get("content-type") ?? "";
    return new Response(await this.bytes(), { headers: { "content-type": type } }).formData();
  }
}

export function nodeRequest(req: IncomingMessage, method: string): Request {
  return new NodeRequest(req, method) as unknown as Request;
}
