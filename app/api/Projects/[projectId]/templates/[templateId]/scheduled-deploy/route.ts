import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { templateSchema } from "@/lib/templates/contract";
import { cancelScheduledDeploy } from "@/lib/templates/lifecycle";

export const DELETE = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/scheduled-deploy",
    operationId: "cancelScheduledDeploy",
    tag: "Templates",
    summary: "Cancels the template's scheduled go-live",
    access: { project: "template.deploy" },
    responses: { 200: { description: "The template, no longer scheduled", schema: templateSchema } },
    errors: { 409: "No go-live is scheduled" },
  },
  async (ctx) => json(await cancelScheduledDeploy(ctx, ctx.params.templateId)),
);
