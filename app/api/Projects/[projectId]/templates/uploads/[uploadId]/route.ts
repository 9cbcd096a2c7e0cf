import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { cancelUploadSession, getUploadSession } from "@/lib/templates/upload-sessions/sessions";

type Params = { projectId: string; uploadId: string };

// GET …/templates/uploads/{uploadId} – the session, with fresh part URLs while it is open
export const GET = withProjectRole<Params>("template.upload", async (ctx) => {
  return json(await getUploadSession(ctx, ctx.params.uploadId));
});

// DELETE …/templates/uploads/{uploadId} – cancel: staged parts removed
export const DELETE = withProjectRole<Params>("template.upload", async (ctx) => {
  await cancelUploadSession(ctx, ctx.params.uploadId);
  return new Response(null, { status: 204 });
});
