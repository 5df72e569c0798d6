// A /ws/chat client for tests: connects, authenticates with a Bearer token, records every frame.
import WebSocket from "ws";
import { baseUrl } from "./api";

export type Frame = Record<string, unknown> & { type: string };

export type ChatSocket = {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
  send: (frame: unknown) => void;
  /** The first recorded frame matching, waiting for it up to `timeoutMs`. */
  waitFor: (match: string | ((f: Frame) => boolean), timeoutMs?: number) => Promise<Frame>;
  /** Frames of a type recorded so far. */
  all: (type: string) => Frame[];
  close: () => void;
};

export async function chatSocket(token: string | null, opts: { base?: string; headers?: Record<string, string> } = {}): Promise<ChatSocket> {
  const ws = new WebSocket((opts.base ?? baseUrl()).replace(/^http/, "ws") + "/ws/chat", { headers: opts.headers ?? {} });
  const frames: Frame[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(d.toString()) as Frame));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const waitFor = async (match: string | ((f: Frame) => boolean), timeoutMs = 5000) => {
    const pred = typeof match === "string" ? (f: Frame) => f.type === match : match;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const f = frames.find(pred);
      if (f) return f;
      if (Date.now() > deadline) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames).slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const s: ChatSocket = {
    ws,
    frames,
    closed,
    send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    waitFor,
    all: (type) => frames.filter((f) => f.type === type),
    close: () => ws.close(),
  };
  if (token) {
    s.send({ type: "auth", token });
    await waitFor("ready");
  }
  return s;
}

/** A pause before asserting that something did not arrive. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
