import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { templateSchema } from "@/lib/templates/contract";
import { archiveTemplate } from "@/lib/templates/lifecycle";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/archive",
    operationId: "archiveTemplate",
    tag: "Templates",
    summary: "Testing or Previous → Archived (no-op when Archived)",
    access: { project: "template.archive" },
    responses: { 200: { description: "The template", schema: templateSchema } },
    errors: { 409: "A Production template cannot be archived" },
  },
  async (ctx) => json(await archiveTemplate(ctx, ctx.params.templateId)),
);
