import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { deleteTemplate } from "@/lib/templates/lifecycle";
import { getTemplateOrThrow } from "@/lib/templates/templates";

type Params = { projectId: string; templateId: string };

// GET /api/Projects/{projectId}/templates/{templateId} – one template with its files and fields
export const GET = withProjectRole<Params>("template.read", async ({ params, db, access }) => {
  return json(await getTemplateOrThrow(db, access, params.templateId));
});

// DELETE /api/Projects/{projectId}/templates/{templateId} – only a template that was never Production
export const DELETE = withProjectRole<Params>("template.delete", async (ctx) => {
  await deleteTemplate(ctx.db, ctx.actor, ctx.access, ctx.params.templateId);
  return new Response(null, { status: 204 });
});
