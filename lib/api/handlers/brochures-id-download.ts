// GET /api/brochures/:id/download - count a download and redirect to the file
import { downloadBrochureOp } from "@/lib/api/operations";
import { route } from "@/lib/api/route";
import { downloadBrochure } from "@/lib/services/seller/brochures";

export const GET = route(downloadBrochureOp, async ({ req, ctx, params }) => {
  const fileUrl = await downloadBrochure(ctx, params.id);
  return new Response(null, { status: 302, headers: { Location: new URL(fileUrl, req.url).pathname, "Cache-Control": "no-store" } });
});
