import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { getRender } from "@/lib/renders/renders";

// GET …/templates/{templateId}/renders/{renderId} – status, and a signed download URL once done
export const GET = withProjectRole<{ projectId: string; templateId: string; renderId: string }>("render.read", async (ctx) => {
  return json(await getRender(ctx, { templateId: ctx.params.templateId, renderId: ctx.params.renderId }));
});
