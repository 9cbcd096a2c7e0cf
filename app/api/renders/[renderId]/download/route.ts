import { bytes, contentDispositionHeader, fileResponses } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { getDb } from "@/lib/db";
import { serveRenderDownload } from "@/lib/renders/serve-download";

export const GET = defineRoute(
  {
    path: "/api/renders/{renderId}/download",
    operationId: "downloadRender",
    tag: "Renders",
    summary: "A finished render's file (byte ranges supported); ?expires=&signature= from the render are its authorization",
    access: "public",
    responses: fileResponses("The MP4, GIF or PNG", { "video/mp4": bytes, "image/gif": bytes, "image/png": bytes }, { "Content-Disposition": contentDispositionHeader }),
    errors: { 404: "The URL is unknown or has expired, or the render is not done" },
  },
  async ({ req, params }) => serveRenderDownload(await getDb(), req, params.renderId),
);
