import { defineRoute } from "@/lib/api/define-route";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { captionsKindQuery, viewerWebVtt, webVttMedia, webVttResponse } from "@/lib/embed/captions";

// GET /api/embed/captions/{slug}/{token} – a campaign recipient's captions (or descriptions) as WebVTT
export const GET = defineRoute(
  {
    path: "/api/embed/captions/{slug}/{token}",
    operationId: "getRecipientCaptions",
    tag: "Embed",
    summary:
      "A campaign recipient's captions or audio descriptions as WebVTT: the cues of the template their page plays, filled with their data over the share's, formatted for the share's locale",
    access: "public",
    query: captionsKindQuery,
    rateLimited: true,
    responses: { 200: { description: "The WebVTT file", media: webVttMedia } },
    errors: { 404: "No such share or recipient", 429: "Too many unknown share slugs or recipient tokens from this address" },
  },
  async ({ req, params, query }) => {
    const source = { share: params.slug, recipient: params.token, address: clientAddress(req.headers) };
    const body = await viewerWebVtt(await getDb(), source, query.kind);
    // Personal (the URL carries the recipient's token): browsers may keep it, shared caches not.
    return webVttResponse(body, "private, max-age=300");
  },
);
