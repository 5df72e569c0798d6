// Any other /api path - 404 as problem+json (an agent gets the error shape it expects, not HTML)
import { ApiError } from "@/lib/errors";
import { problemResponse } from "@/lib/api/errors";

async function notFound(req: Request): Promise<Response> {
  return problemResponse(new ApiError("not_found", `No API endpoint at ${req.method} ${new URL(req.url).pathname}; see /api/openapi`));
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
