import { NotFoundError } from "@/lib/errors";
import { bytes, etagHeader } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { findRecipientPoster } from "@/lib/embed/share-poster";

const headersOf = (poster: { sha256: string; contentType: string }) => ({
  "Content-Type": poster.contentType,
  ETag: `"${poster.sha256}"`,
  // Personal (the URL carries the recipient's token): browsers may keep it, shared caches not.
  "Cache-Control": "private, max-age=300",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
});

// GET /api/embed/posters/{slug}/{token} – a campaign recipient's poster: their page's placeholder and Open Graph image
export const GET = defineRoute(
  {
    path: "/api/embed/posters/{slug}/{token}",
    operationId: "getRecipientPoster",
    tag: "Embed",
    summary:
      "A campaign recipient's poster: the template's poster frame rendered with the recipient's data over the share's (PNG; a Raster template without a Lottie overlay serves its poster file). Their personal page's Open Graph image",
    access: "public",
    rateLimited: true,
    responses: {
      200: {
        description: "The poster",
        media: { "image/png": bytes, "image/jpeg": bytes, "image/webp": bytes },
        headers: { ETag: etagHeader },
      },
      304: { description: "Not modified (If-None-Match matched the ETag)", headers: { ETag: etagHeader } },
    },
    errors: { 404: "No such share or recipient, or the share has no poster", 429: "Too many unknown share slugs or recipient tokens from this address" },
  },
  async ({ req, params }) => {
    const poster = await findRecipientPoster(await getDb(), params.slug, params.token, clientAddress(req.headers));
    if (!poster) throw new NotFoundError("This video has no poster.");
    const headers = headersOf(poster);
    if (req.headers.get("if-none-match") === headers.ETag) return new Response(null, { status: 304, headers });
    return new Response(new Uint8Array(await poster.read()), { headers });
  },
);
