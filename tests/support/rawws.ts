// A WebSocket client on a bare TCP socket, for what a well-behaved library will not do: a foreign
// Origin, thousands of frames in one write, a header announcing a 10 MB frame, a peer that never
// answers pings or the close handshake, or stops reading.
import { randomBytes } from "node:crypto";
import { createConnection, type Socket } from "node:net";

export type RawFrame = { opcode: number; payload: Buffer };

/** One client frame (masked, as RFC 6455 requires). `length` overrides the announced length. */
export function encodeFrame(payload: Buffer | string, opts: { opcode?: number; length?: number } = {}): Buffer {
  const data = typeof payload === "string" ? Buffer.from(payload) : payload;
  const length = opts.length ?? data.length;
  let header: Buffer;
  if (length < 126) {
    header = Buffer.from([0x80 | (opts.opcode ?? 1), 0x80 | length]);
  } else if (length < 65536) {
    header = Buffer.alloc(4);
    header[0] = 0x80 | (opts.opcode ?? 1);
    header[1] = 0x80 | 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = 0x80 | (opts.opcode ?? 1);
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  const masked = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) masked[i] = data[i]! ^ mask[i & 3]!;
  return Buffer.concat([header, mask, masked]);
}

/** Server frames (unmasked) from the front of `buf`; returns them and what is left over. */
function decodeFrames(buf: Buffer): { frames: RawFrame[]; rest: Buffer } {
  const frames: RawFrame[] = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const opcode = buf[at]! & 0x0f;
    let len = buf[at + 1]! & 0x7f;
    let head = 2;
    if (len === 126) {
      if (buf.length - at < 4) break;
      len = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      if (buf.length - at < 10) break;
      len = Number(buf.readBigUInt64BE(at + 2));
      head = 10;
    }
    if (buf.length - at < head + len) break;
    frames.push({ opcode, payload: buf.subarray(at + head, at + head + len) });
    at += head + len;
  }
  return { frames, rest: buf.subarray(at) };
}

export type RawSocket = {
  socket: Socket;
  /** The handshake's status line code (101 when upgraded). */
  status: number;
  frames: RawFrame[];
  /** Text frames parsed as JSON. */
  json: () => Record<string, unknown>[];
  /** The close frame's code, once the server sent one. */
  closeCode: () => number | undefined;
  /** Resolves when the server ends or resets the TCP connection. */
  ended: Promise<void>;
  isEnded: () => boolean;
  send: (frame: unknown) => void;
  waitFor: (pred: (f: Record<string, unknown>) => boolean, timeoutMs?: number) => Promise<Record<string, unknown>>;
};

/**
 * Open /ws/chat by hand. Pings are not answered (there is no automatic pong here), nor is the
 * server's close frame: this peer only ever goes away when the server cuts it.
 */
export function rawSocket(base: string, opts: { origin?: string; host?: string; headers?: Record<string, string> } = {}): Promise<RawSocket> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port) });
    const frames: RawFrame[] = [];
    let pending: Buffer = Buffer.alloc(0);
    let status = 0;
    let ended = false;
    let onEnded!: () => void;
    const endedPromise = new Promise<void>((r) => (onEnded = r));
    const finish = () => {
      if (ended) return;
      ended = true;
      onEnded();
      if (!status) reject(new Error("connection closed before the handshake answer"));
    };
    socket.on("error", finish);
    socket.on("close", finish);
    socket.on("end", finish);
    const json = () => frames.filter((f) => f.opcode === 1).map((f) => JSON.parse(f.payload.toString("utf8")) as Record<string, unknown>);
    const raw: Omit<RawSocket, "status"> = {
      socket,
      frames,
      json,
      closeCode: () => {
        const c = frames.find((f) => f.opcode === 8);
        return c && c.payload.length >= 2 ? c.payload.readUInt16BE(0) : undefined;
      },
      ended: endedPromise,
      isEnded: () => ended,
      send: (frame) => socket.write(encodeFrame(typeof frame === "string" ? frame : JSON.stringify(frame))),
      waitFor: async (pred, timeoutMs = 5000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const f = json().find(pred);
          if (f) return f;
          if (Date.now() > deadline) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(json()).slice(0, 1000)}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      },
    };
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (!status) {
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) return;
        status = Number(/^HTTP\/1\.1 (\d{3})/.exec(pending.subarray(0, end).toString("latin1"))?.[1] ?? 0);
        pending = pending.subarray(end + 4);
        resolve({ ...raw, status });
        if (status !== 101) return;
      }
      const { frames: got, rest } = decodeFrames(pending);
      frames.push(...got);
      pending = rest;
    });
    const headers: Record<string, string> = {
      Host: opts.host ?? url.host,
      Upgrade: "websocket",
      Connection: "Upgrade",
      "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
      "Sec-WebSocket-Version": "13",
      ...(opts.origin ? { Origin: opts.origin } : {}),
      ...(opts.headers ?? {}),
    };
    socket.write(
      `GET /ws/chat HTTP/1.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\r\n")}\r\n\r\n`,
    );
  });
}
