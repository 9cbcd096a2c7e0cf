import { withProjectRole } from "@/lib/api/handler";
import { readJsonBody, searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { createRender, listRenders } from "@/lib/renders/renders";
import { createRenderBody, listRendersQuery } from "@/lib/renders/contract";

type Params = { projectId: string; templateId: string };

// POST …/templates/{templateId}/renders – queue an MP4, GIF or PNG render of the template with the data: 202 {id, status}
export const POST = withProjectRole<Params>("render.create", async (ctx) => {
  const body = await readJsonBody(ctx.req, createRenderBody);
  return json(await createRender(ctx, { templateId: ctx.params.templateId, ...body }), 202);
});

// GET …/templates/{templateId}/renders – the template's renders, newest first
export const GET = withProjectRole<Params>("render.read", async (ctx) => {
  const { limit } = parseInput(listRendersQuery, searchParamsObject(ctx.req));
  return json({ items: await listRenders(ctx, { templateId: ctx.params.templateId, limit }) });
});
