import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { previewResultSchema } from "@/lib/templates/contract";
import { previewTemplate } from "@/lib/templates/preview";
import { previewBodySchema } from "@/lib/templates/preview-contract";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/preview",
    operationId: "previewTemplate",
    tag: "Templates",
    summary: "Render a PNG with the personalization data applied; returns a signed URL valid 15 minutes",
    access: { project: "template.preview" },
    body: previewBodySchema,
    responses: { 200: { description: "The preview", schema: previewResultSchema } },
    errors: { 409: "The template has neither a Lottie file nor a poster" },
  },
  async (ctx) => json(await previewTemplate(ctx, { templateId: ctx.params.templateId, data: ctx.body.data, locale: ctx.body.locale })),
);
