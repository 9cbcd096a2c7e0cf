import { bytes } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { NotFoundError } from "@/lib/errors";
import { readPreviewPng } from "@/lib/templates/preview";
import { verifyPreviewUrl } from "@/lib/templates/preview-url";

export const GET = defineRoute(
  {
    path: "/api/previews/{file}",
    operationId: "getPreviewImage",
    tag: "Templates",
    summary: "A rendered preview PNG; ?expires=&signature= from the preview call are its authorization",
    access: "public",
    responses: { 200: { description: "The PNG", media: { "image/png": bytes } } },
    errors: { 404: "The URL is unknown or has expired" },
  },
  async ({ req, params }) => {
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
  },
);
