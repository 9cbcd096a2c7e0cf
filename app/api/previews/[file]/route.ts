import { NotFoundError } from "@/lib/api/errors";
import { withPublic } from "@/lib/api/handler";
import { readCachedPreview } from "@/lib/templates/preview";
import { verifyPreviewUrl } from "@/lib/templates/preview-url";

// GET /api/previews/{name}.png?expires=&signature= – a rendered preview; the signed URL is the authorization
export const GET = withPublic<{ file: string }>(async ({ req, params }) => {
  // Only the path that was signed: {name}.png.
  const name = /^(.+)\.png$/.exec(params.file)?.[1] ?? "";
  const url = new URL(req.url);
  const notFound = new NotFoundError("This preview URL is unknown or has expired; request a new preview.");
  if (!verifyPreviewUrl(name, url.searchParams.get("expires"), url.searchParams.get("signature"))) throw notFound;
  const png = await readCachedPreview(name);
  if (!png) throw notFound;
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "private, max-age=900", "X-Content-Type-Options": "nosniff" },
  });
});
