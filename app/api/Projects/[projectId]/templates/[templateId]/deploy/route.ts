import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { templateSchema } from "@/lib/templates/contract";
import { deployTemplate } from "@/lib/templates/lifecycle";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/deploy",
    operationId: "deployTemplate",
    tag: "Templates",
    summary: "Testing → Production; the current Production template becomes Previous",
    access: { project: "template.deploy" },
    responses: { 200: { description: "The deployed template", schema: templateSchema } },
    errors: { 409: "Not a Testing template" },
  },
  async (ctx) => json(await deployTemplate(ctx, ctx.params.templateId)),
);
