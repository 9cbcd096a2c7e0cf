import { withProjectRole } from "@/lib/api/handler";
import { searchParamsObject } from "@/lib/api/request";
import { parseInput } from "@/lib/validation/parse-input";
import { json } from "@/lib/api/responses";
import { listTemplatesQuery } from "@/lib/templates/contract";
import { listTemplates } from "@/lib/templates/templates";

// GET /api/Projects/{projectId}/templates?status= – the project's templates, newest first
export const GET = withProjectRole("template.read", async (ctx) => {
  const { status } = parseInput(listTemplatesQuery, searchParamsObject(ctx.req));
  return json({ items: await listTemplates(ctx, { status }) });
});
