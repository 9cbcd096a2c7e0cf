import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { completeUploadSession } from "@/lib/templates/upload-sessions/complete";
import { completeUploadSessionBody } from "@/lib/templates/upload-sessions/contract";

// POST …/templates/uploads/{uploadId}/complete – validate the stored files and create the template
export const POST = withProjectRole<{ projectId: string; uploadId: string }>("template.upload", async (ctx) => {
  const body = await readJsonBody(ctx.req, completeUploadSessionBody);
  const result = await completeUploadSession(ctx, { sessionId: ctx.params.uploadId, completion: body });
  return json(result.body, result.status, result.replayed ? { "Idempotent-Replayed": "true" } : {});
});
