// Scenario 4 baseline: a bare `ws` relay doing the chat socket's routing (auth frame -> ready,
// message -> every socket of the recipient, ack -> the sender) that stores each message with one
// INSERT before delivering it (storing is the contract), and no other checks. The table is a
// messages-like one of its own, in the database the app uses in the bench: PostgreSQL through
// postgres.js (DATABASE_URL, the app's own database) or PGlite (PGLITE_DIR, a copy of the app's
// directory, since the app holds a lock on its own).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { WebSocketServer } from "ws";

const TABLE = `create table if not exists relay_messages (
  id text primary key, conversation_id text not null, sender_id text not null, content text not null,
  sent_by_ai boolean not null default false, created_at timestamptz not null default now())`;
const INDEX = `create index if not exists relay_messages_conversation_idx on relay_messages (conversation_id, created_at)`;
const INSERT = `insert into relay_messages (id, conversation_id, sender_id, content) values ($1, $2, $3, $4) returning created_at`;

async function openDb() {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(process.env.DATABASE_URL, {
      max: Number(process.env.DATABASE_POOL_MAX ?? 10),
      onnotice: () => {},
    });
    return {
      query: async (text, params = []) => [...(await sql.unsafe(text, params, { prepare: true }))],
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const db = await PGlite.create(process.env.PGLITE_DIR, {
    extensions: { pg_trgm },
  });
  return {
    query: async (text, params = []) => (await db.query(text, params)).rows,
  };
}

const db = await openDb();
await db.query(TABLE);
await db.query(INDEX);

const server = createServer((req, res) => res.end("ok"));
const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
const sockets = new Map(); // userId -> Set<ws>

server.on("upgrade", (req, socket, head) => {
  if (req.url !== "/ws/chat") return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => {
    let userId = null;
    ws.on("message", (data) => {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return ws.send(
          JSON.stringify({
            type: "error",
            code: "invalid_frame",
            message: "Not JSON",
          }),
        );
      }
      if (frame.type === "auth") {
        // The JWT's subject, unverified: the bare relay trusts its clients.
        userId = JSON.parse(Buffer.from(String(frame.token).split(".")[1] ?? "", "base64url").toString()).sub;
        if (!sockets.has(userId)) sockets.set(userId, new Set());
        sockets.get(userId).add(ws);
        return ws.send(JSON.stringify({ type: "ready", userId }));
      }
      if (frame.type !== "message" || !userId) return;
      const id = randomUUID();
      const from = userId;
      const conversationId = [from, frame.to].sort().join(":");
      db.query(INSERT, [id, conversationId, from, String(frame.content)]).then(
        ([row]) => {
          const createdAt = new Date(row.created_at).toISOString();
          const out = JSON.stringify({
            type: "message",
            id,
            conversationId,
            from,
            to: frame.to,
            content: frame.content,
            sentByAI: false,
            createdAt,
          });
          for (const s of sockets.get(frame.to) ?? []) s.send(out);
          if (ws.readyState === ws.OPEN)
            ws.send(
              JSON.stringify({
                type: "ack",
                id,
                conversationId,
                createdAt,
                ...(frame.ref ? { ref: frame.ref } : {}),
              }),
            );
        },
        () =>
          ws.readyState === ws.OPEN &&
          ws.send(
            JSON.stringify({
              type: "error",
              code: "internal_error",
              message: "not stored",
              ...(frame.ref ? { ref: frame.ref } : {}),
            }),
          ),
      );
    });
    ws.on("close", () => userId && sockets.get(userId)?.delete(ws));
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1");
