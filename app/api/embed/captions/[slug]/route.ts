import { defineRoute } from "@/lib/api/define-route";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { captionsKindQuery, viewerWebVtt, webVttMedia, webVttResponse } from "@/lib/embed/captions";
import { viewerCookieOf } from "@/lib/releases/viewer-cookie";

// GET /api/embed/captions/{slug} – the share's captions (or descriptions) as WebVTT, with the share's data
export const GET = defineRoute(
  {
    path: "/api/embed/captions/{slug}",
    operationId: "getShareCaptions",
    tag: "Embed",
    summary:
      "The share's captions or audio descriptions as WebVTT: the served template's cues filled with the share's data, formatted for its locale (the viewer's A/B variant by their cookie)",
    access: "public",
    query: captionsKindQuery,
    rateLimited: true,
    responses: { 200: { description: "The WebVTT file", media: webVttMedia } },
    errors: { 404: "This video is not available", 429: "Too many unknown share slugs from this address" },
  },
  async ({ req, params, query }) => {
    const source = { share: params.slug, address: clientAddress(req.headers), viewer: viewerCookieOf(req.headers) };
    const body = await viewerWebVtt(await getDb(), source, query.kind);
    // Short, as the poster's; the A/B variant follows the viewer's cookie.
    return webVttResponse(body, "public, max-age=300", { Vary: "Cookie" });
  },
);
