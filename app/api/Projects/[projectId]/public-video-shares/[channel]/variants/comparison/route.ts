import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { compareVariants } from "@/lib/experiments/compare-variants";
import { variantComparisonQueryParams, variantComparisonSchema } from "@/lib/experiments/contract";
import { channelSchema } from "@/lib/shares/contract";

// GET …/public-video-shares/{channel}/variants/comparison – the share's A/B test: each variant against the control
export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/variants/comparison",
    operationId: "compareShareVariants",
    tag: "Analytics",
    summary:
      "The share's A/B test: each variant's plays, completion rate and CTR with 95 % Wilson intervals, and a two-proportion z-test of each variant against the control, with a verdict",
    access: { project: "analytics.read" },
    params: { channel: channelSchema },
    query: variantComparisonQueryParams,
    responses: { 200: { description: "The variants compared over the window", schema: variantComparisonSchema } },
    errors: {
      404: "No such project or no access to it, or the project has no share on this channel",
      409: "The share has no A/B test (no variants): it serves one template",
    },
  },
  async (ctx) => json(await compareVariants(ctx, { channel: ctx.params.channel, ...ctx.query })),
);
