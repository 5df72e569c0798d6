import { serveSitemapChild } from "@/lib/services/seo/http";

// Next compresses what it serves: the body goes out uncompressed from here.
export const dynamic = "force-dynamic";

// GET /sitemaps/<name>.xml - one child sitemap of /sitemap.xml
export async function GET(req: Request, { params }: { params: Promise<{ name: string }> }) {
  return serveSitemapChild(req, (await params).name, { gzip: false });
}
