import { withProjectRole } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { deployTemplate } from "@/lib/templates/lifecycle";

// POST …/templates/{templateId}/deploy – Testing → Production; the old Production → Previous
export const POST = withProjectRole<{ projectId: string; templateId: string }>("template.deploy", async (ctx) => {
  return json(await deployTemplate(ctx, ctx.params.templateId));
});
