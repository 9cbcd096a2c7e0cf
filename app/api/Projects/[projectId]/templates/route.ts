import { listOf } from "@/lib/api/contract";
import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { listTemplatesQuery, templateSchema } from "@/lib/templates/contract";
import { listTemplates } from "@/lib/templates/templates";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/templates",
    operationId: "listTemplates",
    tag: "Templates",
    summary: "List the project's templates, newest first",
    access: { project: "template.read" },
    query: listTemplatesQuery,
    responses: { 200: { description: "The templates", schema: listOf(templateSchema) } },
  },
  async (ctx) => json({ items: await listTemplates(ctx, { status: ctx.query.status }) }),
);
