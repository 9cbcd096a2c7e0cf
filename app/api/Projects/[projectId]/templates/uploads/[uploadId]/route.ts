import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { cancelUploadSession, getUploadSessionOrThrow, presentUploadSession } from "@/lib/templates/upload-sessions/sessions";

type Params = { projectId: string; uploadId: string };

// GET …/templates/uploads/{uploadId} – the session, with fresh part URLs while it is open
export const GET = withProjectRole<Params>("template.upload", async (ctx) => {
  return json(await presentUploadSession(await getUploadSessionOrThrow(ctx.db, ctx.access, ctx.params.uploadId)));
});

// DELETE …/templates/uploads/{uploadId} – cancel: staged parts removed
export const DELETE = withProjectRole<Params>("template.upload", async (ctx) => {
  await cancelUploadSession(ctx.db, ctx.access, ctx.params.uploadId);
  return new Response(null, { status: 204 });
});
