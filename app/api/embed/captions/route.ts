import { defineRoute } from "@/lib/api/define-route";
import { getDb } from "@/lib/db";
import { captionsSessionQuery, viewerWebVtt, webVttMedia, webVttResponse } from "@/lib/embed/captions";

// GET /api/embed/captions?session=… – an embed session's captions (or descriptions) as WebVTT
export const GET = defineRoute(
  {
    path: "/api/embed/captions",
    operationId: "getSessionCaptions",
    tag: "Embed",
    summary:
      "An embed session's captions or audio descriptions as WebVTT: the cues of the template its share serves the session, filled with the session's data over the share's, formatted for the share's locale",
    access: "public",
    query: captionsSessionQuery,
    rateLimited: true,
    responses: { 200: { description: "The WebVTT file", media: webVttMedia } },
    errors: { 401: "The embed-session token is invalid or expired", 404: "This video is not available", 429: "Too many unknown share slugs from this address" },
  },
  async ({ query }) => {
    const body = await viewerWebVtt(await getDb(), { session: query.session }, query.kind);
    // The session's own data: never in a shared cache.
    return webVttResponse(body, "private, max-age=300");
  },
);
