import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { promoteBody, variantsSchema } from "@/lib/releases/contract";
import { promoteVariant } from "@/lib/releases/variants";
import { channelSchema } from "@/lib/shares/contract";

export const POST = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/variants/promote",
    operationId: "promoteShareVariant",
    tag: "Shares",
    summary: "Ends the share's A/B test with a winner: it becomes Production (unless it is already), the others stop being shown",
    access: { project: "template.deploy" },
    params: { channel: channelSchema },
    body: promoteBody,
    responses: { 200: { description: "The share's variants: none, the test has ended", schema: variantsSchema } },
    errors: { 409: "The share runs no A/B test" },
  },
  async (ctx) => json(await promoteVariant(ctx, { channel: ctx.params.channel, templateId: ctx.body.templateId })),
);
