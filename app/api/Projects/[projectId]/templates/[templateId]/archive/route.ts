import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { archiveTemplate } from "@/lib/templates/lifecycle";

// POST …/templates/{templateId}/archive – Testing/Previous → Archived; a Production template is refused (409)
export const POST = withProjectRole<{ projectId: string; templateId: string }>("template.archive", async (ctx) => {
  return json(await archiveTemplate(ctx, ctx.params.templateId));
});
