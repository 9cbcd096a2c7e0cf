import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody } from "@/lib/api/request";
import { json } from "@/lib/api/responses";
import { previewTemplate } from "@/lib/templates/preview";
import { previewBodySchema } from "@/lib/templates/preview-contract";

// POST …/templates/{templateId}/preview – a PNG with the data applied, behind a signed URL valid 15 minutes
export const POST = withProjectRole<{ projectId: string; templateId: string }>("template.preview", async (ctx) => {
  const { data } = await readJsonBody(ctx.req, previewBodySchema);
  return json(await previewTemplate(ctx, { templateId: ctx.params.templateId, data }));
});
