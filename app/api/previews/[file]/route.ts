import { NotFoundError } from "@/lib/errors";
import { withPublic } from "@/lib/api/handler";
import { readPreviewPng } from "@/lib/templates/preview";
import { verifyPreviewUrl } from "@/lib/templates/preview-url";

// GET /api/previews/{sha256}.png?expires=&signature= – a rendered preview from the blob store; the signed URL is the authorization
export const GET = withPublic<{ file: string }>(async ({ req, params }) => {
  // Only the path that was signed: {sha256}.png.
  const sha256 = /^(.+)\.png$/.exec(params.file)?.[1] ?? "";
  const url = new URL(req.url);
  const notFound = new NotFoundError("This preview URL is unknown or has expired; request a new preview.");
  if (!verifyPreviewUrl(sha256, url.searchParams.get("expires"), url.searchParams.get("signature"))) throw notFound;
  const png = await readPreviewPng(sha256);
  if (!png) throw notFound;
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "private, max-age=900", "X-Content-Type-Options": "nosniff" },
  });
});
