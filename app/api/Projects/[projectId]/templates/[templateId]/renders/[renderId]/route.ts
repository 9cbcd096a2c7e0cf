import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { renderSchema } from "@/lib/renders/contract";
import { getRender } from "@/lib/renders/renders";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/renders/{renderId}",
    operationId: "getRender",
    tag: "Renders",
    summary: "A render: queued, rendering, done (with a signed download URL valid 24 hours) or failed (with its error)",
    access: { project: "render.read" },
    responses: { 200: { description: "The render", schema: renderSchema } },
  },
  async (ctx) => json(await getRender(ctx, { templateId: ctx.params.templateId, renderId: ctx.params.renderId })),
);
