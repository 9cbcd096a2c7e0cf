import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { getRenderOrThrow, presentRender } from "@/lib/renders/renders";

// GET …/templates/{templateId}/renders/{renderId} – status, and a signed download URL once done
export const GET = withProjectRole<{ projectId: string; templateId: string; renderId: string }>("render.read", async (ctx) => {
  return json(presentRender(await getRenderOrThrow(ctx.db, ctx.access, ctx.params.templateId, ctx.params.renderId)));
});
