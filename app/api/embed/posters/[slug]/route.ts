import { NotFoundError } from "@/lib/errors";
import { withPublic } from "@/lib/api/handler";
import { clientAddress } from "@/lib/client-address";
import { getDb } from "@/lib/db";
import { findSharePoster } from "@/lib/embed/share-poster";

// GET /api/embed/posters/{slug} – the share's poster: shown until the player's first frame, and as its Open Graph image
export const GET = withPublic<{ slug: string }>(async ({ req, params }) => {
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
});
