// Scenario 1 baseline: raw node:http answering the same JSON as GET /api/health.
import { createServer } from "node:http";

const body = process.env.BENCH_BODY ?? '{"status":"ok"}';
createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(body);
}).listen(Number(process.env.PORT), "127.0.0.1");
