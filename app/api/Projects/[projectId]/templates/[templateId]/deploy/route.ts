import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { deployBody, templateSchema } from "@/lib/templates/contract";
import { deployTemplate } from "@/lib/templates/lifecycle";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/deploy",
    operationId: "deployTemplate",
    tag: "Templates",
    summary: "Testing → Production (a deploy) or Previous → Production (a rollback); the current Production template becomes Previous. With `at`, scheduled for then",
    access: { project: "template.deploy" },
    body: deployBody,
    bodyOptional: true,
    responses: { 200: { description: "The deployed template; with `at`, the template with its scheduledDeployAt", schema: templateSchema } },
    errors: { 409: "Production already, or Archived" },
  },
  async (ctx) => json(await deployTemplate(ctx, { templateId: ctx.params.templateId, at: ctx.body.at })),
);
