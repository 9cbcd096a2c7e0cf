import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { deleteTemplate } from "@/lib/templates/lifecycle";
import { getTemplate } from "@/lib/templates/templates";

type Params = { projectId: string; templateId: string };

// GET /api/Projects/{projectId}/templates/{templateId} – one template with its files and fields
export const GET = withProjectRole<Params>("template.read", async (ctx) => {
  return json(await getTemplate(ctx, ctx.params.templateId));
});

// DELETE /api/Projects/{projectId}/templates/{templateId} – only a template that was never Production
export const DELETE = withProjectRole<Params>("template.delete", async (ctx) => {
  await deleteTemplate(ctx, ctx.params.templateId);
  return new Response(null, { status: 204 });
});
