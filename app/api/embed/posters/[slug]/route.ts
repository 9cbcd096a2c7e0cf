import { NotFoundError } from "@/lib/errors";
import { bytes } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { findSharePoster } from "@/lib/embed/share-poster";

// Shown until the player's first frame, and as the share's Open Graph image.
export const GET = defineRoute(
  {
    path: "/api/embed/posters/{slug}",
    operationId: "getSharePoster",
    tag: "Embed",
    summary: "The share's poster image (its Open Graph image too)",
    access: "public",
    rateLimited: true,
    responses: { 200: { description: "The poster", media: { "image/*": bytes } } },
    errors: { 404: "No such share, or it has no poster", 429: "Too many unknown share slugs from this address" },
  },
  async ({ req, params }) => {
    const poster = await findSharePoster(await getDb(), params.slug, clientAddress(req.headers));
    if (!poster) throw new NotFoundError("This share has no poster.");
    return new Response(new Uint8Array(poster.body), {
      headers: {
        "Content-Type": poster.contentType,
        // Short: a deploy or a data change gives the share another poster.
        "Cache-Control": "public, max-age=300",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      },
    });
  },
);
