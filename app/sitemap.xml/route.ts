import { serveSitemapIndex } from "@/lib/services/seo/http";

// Next compresses what it serves: the body goes out uncompressed from here.
export const dynamic = "force-dynamic";

// GET /sitemap.xml - the sitemap index (lib/services/seo; served by server.ts directly in production)
export const GET = (req: Request) => serveSitemapIndex(req, { gzip: false });
