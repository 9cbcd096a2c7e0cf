import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { uploadSessionSchema } from "@/lib/templates/upload-sessions/contract";
import { cancelUploadSession, getUploadSession } from "@/lib/templates/upload-sessions/sessions";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/uploads/{uploadId}",
    operationId: "getUploadSession",
    tag: "Uploads",
    summary: "An upload session, with fresh part URLs while it is open and the parts the app has received",
    access: { project: "template.upload" },
    responses: { 200: { description: "The upload session", schema: uploadSessionSchema } },
  },
  async (ctx) => json(await getUploadSession(ctx, ctx.params.uploadId)),
);

export const DELETE = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/uploads/{uploadId}",
    operationId: "cancelUploadSession",
    tag: "Uploads",
    summary: "Cancel an open upload session: multipart uploads aborted, staged parts removed",
    access: { project: "template.upload" },
    responses: { 204: { description: "Cancelled (or already)" } },
    errors: { 409: "The session has ended otherwise" },
  },
  async (ctx) => {
    await cancelUploadSession(ctx, ctx.params.uploadId);
    return new Response(null, { status: 204 });
  },
);
