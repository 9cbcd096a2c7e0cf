import { defineRoute } from "@/lib/api/define-route";
import { json } from "@/lib/api/responses";
import { putVariantsBody, variantsSchema } from "@/lib/releases/contract";
import { getVariants, putVariants } from "@/lib/releases/variants";
import { channelSchema } from "@/lib/shares/contract";

export const GET = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/variants",
    operationId: "getShareVariants",
    tag: "Shares",
    summary: "The share's A/B test: its variants and weights (empty when none runs)",
    access: { project: "share.read" },
    params: { channel: channelSchema },
    responses: { 200: { description: "The share's variants", schema: variantsSchema } },
  },
  async (ctx) => json(await getVariants(ctx, ctx.params.channel)),
);

export const PUT = defineRoute(
  {
    path: "/api/Projects/{projectId}/public-video-shares/{channel}/variants",
    operationId: "putShareVariants",
    tag: "Shares",
    summary: "Starts, changes or (with an empty list) ends the share's A/B test: 2–4 templates with weights adding up to 100; each viewer keeps the variant they were given",
    access: { project: "share.write" },
    params: { channel: channelSchema },
    body: putVariantsBody,
    responses: { 200: { description: "The share's variants", schema: variantsSchema } },
  },
  async (ctx) => json(await putVariants(ctx, { channel: ctx.params.channel, variants: ctx.body.variants })),
);
