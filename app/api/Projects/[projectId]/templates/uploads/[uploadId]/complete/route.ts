import { replayedHeader } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { uploadedTemplateSchema } from "@/lib/templates/contract";
import { completeUploadSession } from "@/lib/templates/upload-sessions/complete";
import { completeUploadSessionBody } from "@/lib/templates/upload-sessions/contract";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/uploads/{uploadId}/complete",
    operationId: "completeUploadSession",
    tag: "Uploads",
    summary:
      "Complete an upload session: the stored files are read once and validated as an upload's, and the template is created; for S3 list each part's ETag",
    access: { project: "template.upload" },
    body: completeUploadSessionBody,
    responses: {
      201: {
        description: "The template, status Testing, and its warnings (completing again replays it with Idempotent-Replayed: true)",
        schema: uploadedTemplateSchema,
        headers: { "Idempotent-Replayed": replayedHeader },
      },
    },
    errors: {
      409: "The session is not open (failed, cancelled, expired) or is being completed",
      422: "A file was not sent whole (the session stays open), or the files break the upload's rules (the session fails)",
    },
  },
  async (ctx) => {
    const result = await completeUploadSession(ctx, { sessionId: ctx.params.uploadId, completion: ctx.body });
    return json(result.body, result.status, result.replayed ? { "Idempotent-Replayed": "true" } : {});
  },
);
