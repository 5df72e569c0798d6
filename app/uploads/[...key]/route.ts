// GET/HEAD /uploads/<key> - a stored upload, with its sniffed type and locked-down headers
import { serveUpload } from "@/lib/services/uploads/serve";

type Context = { params: Promise<{ key?: string[] }> };

export async function GET(req: Request, context: Context): Promise<Response> {
  return serveUpload(req, (await context.params).key);
}

export async function HEAD(req: Request, context: Context): Promise<Response> {
  return serveUpload(req, (await context.params).key);
}
