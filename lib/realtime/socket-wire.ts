// What the chat socket puts on the wire besides chat: its close codes, closing with a grace period,
// refusing an upgrade before it happens, and sending one JSON frame.
import type { Duplex } from "node:stream";
import { WebSocket } from "ws";

export const MAX_FRAME_BYTES = 64 * 1024;
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_POLICY = 1008;
/** Largest frame read at all; larger ones close the socket (1009) from their header alone. */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
/** After the server closes a socket, the client has this long to finish the close handshake. */
const CLOSE_GRACE_MS = 2000;

/**
 * Close with a code, and cut the connection if the client does not complete the close in time.
 * `stopReading`: nothing more is read from it (a flooder's backlog is never parsed).
 */
export function closeSocket(ws: WebSocket, code: number, reason: string, stopReading = false) {
  if (ws.readyState === WebSocket.CLOSED) return;
  ws.close(code, reason);
  if (stopReading) ws.pause();
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}

export function refuseUpgrade(socket: Duplex, status: number, statusText: string, body: string) {
  socket.on("error", () => {});
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  // Whatever the client still sends is not read.
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/** Said on the socket when its AI account may not read chat: message frames are withheld until it may. */
export function withheld(message: string) {
  return { type: "error", code: "permission_denied", message: `${message}; message frames are not delivered until the guardian allows it` };
}

export function send(ws: WebSocket, frame: object) {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
