import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { buildPageManifest } from "@/lib/embed/page-manifest";
import { manifestQuery, pageManifestSchema } from "@/lib/embed/contract";
import { viewerCookieOf } from "@/lib/releases/viewer-cookie";

export const GET = defineRoute(
  {
    path: "/api/embed/manifest",
    operationId: "getPageManifest",
    tag: "Embed",
    summary: "The page manifest the player plays: template files, bound data, CTA, consent mode, a fresh ingest token",
    access: "public",
    query: manifestQuery,
    rateLimited: true,
    responses: { 200: { description: "The page manifest", schema: pageManifestSchema } },
    errors: { 401: "The embed-session token is invalid or expired", 404: "This video is not available", 429: "Too many unknown share slugs from this address" },
  },
  async ({ req, query }) => {
    const source = query.share !== undefined ? { share: query.share, address: clientAddress(req.headers), viewer: viewerCookieOf(req.headers) } : { session: query.session! };
    return json(await buildPageManifest(await getDb(), source), 200, { "Cache-Control": "no-store" });
  },
);
