import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { createdRenderSchema, createRenderBody, listRendersQuery, renderSchema } from "@/lib/renders/contract";
import { createRender, listRenders } from "@/lib/renders/renders";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/renders",
    operationId: "createRender",
    tag: "Renders",
    summary:
      "Queue a render of the template with the data: an H.264 MP4, a GIF (at most 5 MB) or a PNG still; render.completed or render.failed goes to the project's webhooks and webhookUrl",
    access: { project: "render.create" },
    body: createRenderBody,
    responses: { 202: { description: "Queued; poll GET …/renders/{id}", schema: createdRenderSchema } },
  },
  async (ctx) => json(await createRender(ctx, { templateId: ctx.params.templateId, ...ctx.body }), 202),
);

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates/{templateId}/renders",
    operationId: "listRenders",
    tag: "Renders",
    summary: "The template's renders, newest first",
    access: { project: "render.read" },
    query: listRendersQuery,
    responses: { 200: { description: "The renders", schema: listOf(renderSchema) } },
  },
  async (ctx) => json({ items: await listRenders(ctx, { templateId: ctx.params.templateId, limit: ctx.query.limit }) }),
);
