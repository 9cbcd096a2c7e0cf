import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { templateSchema } from "@/lib/templates/contract";
import { deleteTemplate } from "@/lib/templates/lifecycle";
import { getTemplate } from "@/lib/templates/templates";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}",
    operationId: "getTemplate",
    tag: "Templates",
    summary: "One template with its files and personalization fields",
    access: { project: "template.read" },
    responses: { 200: { description: "The template", schema: templateSchema } },
  },
  async (ctx) => json(await getTemplate(ctx, ctx.params.templateId)),
);

export const DELETE = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}",
    operationId: "deleteTemplate",
    tag: "Templates",
    summary: "Delete a template that was never Production (its unshared files too)",
    access: { project: "template.delete" },
    responses: { 204: { description: "Deleted" } },
    errors: { 409: "The template was Production once" },
  },
  async (ctx) => {
    await deleteTemplate(ctx, ctx.params.templateId);
    return new Response(null, { status: 204 });
  },
);
