// A chat-socket flooder in a process of its own, so its work never delays the test's measuring
// client: connect, authenticate, write 10,000 message frames in one go, and when the server closes
// the connection, reconnect after `pauseMs` and do it again, until SIGTERM. Prints its counts as
// JSON on exit. Usage: node flooder.mjs <http base url> <token> <recipient id> <pauseMs>
import { randomBytes } from "node:crypto";
import { createConnection } from "node:net";

const [base, token, to, pauseArg] = process.argv.slice(2);
const url = new URL(base);
const pauseMs = Number(pauseArg ?? 50);
const stats = { connections: 0, bursts: 0, closeCodes: {} };
let running = true;

function frame(text) {
  const data = Buffer.from(text);
  const header = data.length < 126 ? Buffer.from([0x81, 0x80 | data.length]) : Buffer.from([0x81, 0x80 | 126, data.length >> 8, data.length & 0xff]);
  const mask = randomBytes(4);
  for (let i = 0; i < data.length; i++) data[i] ^= mask[i & 3];
  return Buffer.concat([header, mask, data]);
}

const burst = Buffer.concat(Array.from({ length: 10_000 }, (_, i) => frame(JSON.stringify({ type: "message", to, content: `flood ${i}` }))));
const auth = frame(JSON.stringify({ type: "auth", token }));

/** One connection: resolves with the server's close code (or 0 when the TCP connection just ended). */
function once() {
  return new Promise((resolve) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port) });
    let buf = Buffer.alloc(0);
    let upgraded = false;
    const done = (code) => {
      socket.destroy();
      resolve(code);
    };
    socket.on("error", () => done(0));
    socket.on("close", () => done(0));
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (!upgraded) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        if (!buf.subarray(0, 12).toString().includes("101")) return done(0);
        upgraded = true;
        buf = buf.subarray(end + 4);
        socket.write(auth);
      }
      // Server frames are unmasked and small here; read whole ones off the front.
      while (buf.length >= 2) {
        let len = buf[1] & 0x7f;
        let head = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          head = 4;
        }
        if (buf.length < head + len) return;
        const opcode = buf[0] & 0x0f;
        const payload = buf.subarray(head, head + len);
        buf = buf.subarray(head + len);
        if (opcode === 8) return done(payload.length >= 2 ? payload.readUInt16BE(0) : 0);
        if (opcode === 1 && payload.includes('"type":"ready"')) {
          socket.write(burst);
          stats.bursts++;
          process.stdout.write("burst\n");
        }
      }
    });
    socket.write(
      `GET /ws/chat HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

process.on("SIGTERM", () => (running = false));
process.stdout.write("started\n");
while (running) {
  const code = await once();
  stats.connections++;
  stats.closeCodes[code] = (stats.closeCodes[code] ?? 0) + 1;
  await new Promise((r) => setTimeout(r, pauseMs));
}
process.stdout.write(JSON.stringify(stats) + "\n");
