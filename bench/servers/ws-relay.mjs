// Scenario 4 baseline: a bare `ws` relay doing the chat socket's routing (auth frame -> ready,
// message -> every socket of the recipient, ack -> the sender) with no storage and no checks.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";

const server = createServer((req, res) => res.end("ok"));
const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
const sockets = new Map(); // userId -> Set<ws>
let seq = 0;

server.on("upgrade", (req, socket, head) => {
  if (req.url !== "/ws/chat") return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => {
    let userId = null;
    ws.on("message", (data) => {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return ws.send(JSON.stringify({ type: "error", code: "invalid_frame", message: "Not JSON" }));
      }
      if (frame.type === "auth") {
        // The JWT's subject, unverified: the bare relay trusts its clients.
        userId = JSON.parse(Buffer.from(String(frame.token).split(".")[1] ?? "", "base64url").toString()).sub;
        if (!sockets.has(userId)) sockets.set(userId, new Set());
        sockets.get(userId).add(ws);
        return ws.send(JSON.stringify({ type: "ready", userId }));
      }
      if (frame.type !== "message" || !userId) return;
      const id = String(++seq);
      const conversationId = [userId, frame.to].sort().join(":");
      const out = JSON.stringify({ type: "message", id, conversationId, from: userId, to: frame.to, content: frame.content, sentByAI: false, createdAt: new Date().toISOString() });
      for (const s of sockets.get(frame.to) ?? []) s.send(out);
      ws.send(JSON.stringify({ type: "ack", id, conversationId, ...(frame.ref ? { ref: frame.ref } : {}) }));
    });
    ws.on("close", () => userId && sockets.get(userId)?.delete(ws));
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1");
